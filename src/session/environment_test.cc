#include "session/environment.h"

#include <gtest/gtest.h>

namespace tare::session {
namespace {

TEST(Environment, OverridesReplaceInPlaceAndAppendNewKeys) {
  std::vector<std::string> env = {"A=1", "PATH=/bin", "B=2"};
  EXPECT_EQ(ApplyEnvOverrides(env, {"PATH=/usr/bin", "C=3", "A=", "C=4"}),
            (std::vector<std::string>{"A=", "PATH=/usr/bin", "B=2", "C=4"}));
}

TEST(Environment, KeyPrefixesAreDifferentKeys) {
  EXPECT_EQ(ApplyEnvOverrides({"AB=1"}, {"A=2"}), (std::vector<std::string>{"AB=1", "A=2"}));
}

TEST(Environment, OverridesMustHaveAKey) {
  EXPECT_TRUE(ValidateEnvOverrides({"A=1", "B=", "C=x=y"}, "--env").ok());
  Status s = ValidateEnvOverrides({"A=1", "NOEQUALS"}, "--env");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--env 'NOEQUALS' must look like KEY=VALUE"), std::string::npos) << s.message();
  EXPECT_FALSE(ValidateEnvOverrides({"=value"}, "[[cells]] env").ok());
}

TEST(Environment, ProcessEnvironmentIsTares) {
  setenv("TARE_SESSION_TEST_VAR", "x y", 1);
  auto env = ProcessEnvironment();
  EXPECT_NE(std::find(env.begin(), env.end(), "TARE_SESSION_TEST_VAR=x y"), env.end());
}

}  // namespace
}  // namespace tare::session
