#include "base/redact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace tare {
namespace {

TEST(RedactSecrets, UserInfoPasswordsAreMasked) {
  EXPECT_EQ(RedactSecrets("postgresql://ci:s3cret@db.example:5432/tare"), "postgresql://ci:***@db.example:5432/tare");
  EXPECT_EQ(RedactSecrets("postgres://ci:s3cret@db/tare?sslmode=require"), "postgres://ci:***@db/tare?sslmode=require");
  // The user info ends at the last '@' of the authority: an unescaped '@' in the password is hidden too.
  EXPECT_EQ(RedactSecrets("postgresql://ci:p@ss:w@db/tare"), "postgresql://ci:***@db/tare");
  // Inside an option word and among other text, every URL.
  EXPECT_EQ(RedactSecrets("--store=postgresql://a:x@h/d and postgresql://b:y@h/d"),
            "--store=postgresql://a:***@h/d and postgresql://b:***@h/d");
}

TEST(RedactSecrets, PasswordParametersAreMasked) {
  EXPECT_EQ(RedactSecrets("postgresql:///tare?host=/run/pg&password=s3cret&sslmode=disable"),
            "postgresql:///tare?host=/run/pg&password=***&sslmode=disable");
  EXPECT_EQ(RedactSecrets("postgresql://ci@db/tare?PassWord=s3cret"), "postgresql://ci@db/tare?PassWord=***");
  EXPECT_EQ(RedactSecrets("host=db password=s3cret dbname=tare"), "host=db password=*** dbname=tare");
  EXPECT_EQ(RedactSecrets("--password=s3cret"), "--password=***");
  // Both at once.
  EXPECT_EQ(RedactSecrets("postgresql://ci:a@db/tare?password=b"), "postgresql://ci:***@db/tare?password=***");
}

TEST(RedactSecrets, TextWithoutSecretsIsUnchanged) {
  for (const char* text :
       {"", ".tare/tare.db", "postgresql://ci@db:5432/tare", "postgresql:///tare?host=/tmp", "http://example.com/a:b@c",
        "user:pass without a scheme", "password=", "a://b:c", "://:@", "x://@", "password=&x"}) {
    EXPECT_EQ(RedactSecrets(text), text) << text;
  }
}

// Issue 48, item 1: tare's own argv (/proc/PID/cmdline) keeps its length, each secret byte a '*'.
TEST(MaskSecretsInPlace, EverySecretByteBecomesAStarAndTheLengthStays) {
  char url[] = "--store=postgresql://ci:s3cret@db/tare?password=abc&sslmode=disable";
  MaskSecretsInPlace(url);
  EXPECT_STREQ(url, "--store=postgresql://ci:******@db/tare?password=***&sslmode=disable");
  char plain[] = "postgresql://ci@db/tare";
  MaskSecretsInPlace(plain);
  EXPECT_STREQ(plain, "postgresql://ci@db/tare");
}

TEST(EnvironmentWithoutSecrets, TaresStoreAndLibpqsPasswordAreLeftOut) {
  setenv("TARE_STORE", "postgresql://ci:s3cret@db/tare", 1);
  setenv("PGPASSWORD", "s3cret", 1);
  setenv("TARE_STORE_NOT_A_SECRET", "kept", 1);
  const std::vector<std::string> env = EnvironmentWithoutSecrets();
  std::vector<std::string> pointed;
  for (char* kv : EnvironmentWithoutSecretsPointers()) {
    if (kv != nullptr) pointed.emplace_back(kv);
  }
  unsetenv("TARE_STORE");
  unsetenv("PGPASSWORD");
  unsetenv("TARE_STORE_NOT_A_SECRET");
  EXPECT_EQ(env, pointed);
  for (const std::string& kv : env) {
    EXPECT_NE(kv.rfind("TARE_STORE=", 0), 0u) << kv;
    EXPECT_NE(kv.rfind("PGPASSWORD=", 0), 0u) << kv;
  }
  EXPECT_NE(std::find(env.begin(), env.end(), "TARE_STORE_NOT_A_SECRET=kept"), env.end());
}

}  // namespace
}  // namespace tare
