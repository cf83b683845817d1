// `tare env` through CLI11, as main will wire it: parse real arguments, capture stdout.
#include "cli/commands.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "env/host_fingerprint.h"
#include "env/fingerprint_json.h"
#include "env/target_environment.h"
#include "session/environment.h"

namespace tare::cli {
namespace {

struct Result {
  int exit_code = -1;
  std::string out;
};

Result RunTare(std::vector<std::string> args) {
  CLI::App app("tare");
  app.require_subcommand(1);
  Result result;
  AddEnvCommand(app, &result.exit_code);
  std::vector<const char*> argv = {"tare"};
  for (const auto& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  app.parse(static_cast<int>(argv.size()), argv.data());
  result.out = testing::internal::GetCapturedStdout();
  return result;
}

TEST(EnvCommandTest, PrintsGroupedKeysAndChecksWithFixes) {
  Result r = RunTare({"env"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("Host fingerprint (hard digest ", 0), 0u) << r.out;
  for (const char* heading : {"\nCPU\n", "\nOperating system\n", "\nMemory\n", "\nLimits\n", "\nMachine\n",
                              "\nC library and loader\n", "\nEnvironment\n", "\nStability checks ("}) {
    EXPECT_NE(r.out.find(heading), std::string::npos) << heading << "\n" << r.out;
  }
  // Hard keys are starred, soft ones are not.
  EXPECT_NE(r.out.find("  * cpu.model_name "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  * libc.sha256 "), std::string::npos);
  EXPECT_NE(r.out.find("    os.loadavg "), std::string::npos);
  // The kernel release printed is this machine's.
  Fingerprint fp = env::CollectFingerprint({});
  EXPECT_NE(r.out.find(fp.Get("os.kernel")), std::string::npos);
  // Every check is listed by name; a warning is followed by its fix.
  for (const auto& c : fp.checks) EXPECT_NE(r.out.find("  " + c.name + " "), std::string::npos) << c.name;
  EXPECT_NE(r.out.find("fix: "), std::string::npos);
  EXPECT_EQ(r.out.find("valgrind.version"), std::string::npos) << "valgrind is probed only with --sim";
}

TEST(EnvCommandTest, JsonIsTheFingerprintSchema) {
  Result r = RunTare({"env", "--json"});
  EXPECT_EQ(r.exit_code, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "tare.fingerprint/1");
  auto fp = env::FingerprintFromJson(j);
  ASSERT_TRUE(fp.ok()) << fp.status().ToString();
  // The host's digest with target.env from what a target inherits (env/target_environment.h).
  Fingerprint expected = env::CollectFingerprint({});
  env::AddTargetEnvironment(&expected, session::ProcessEnvironment());
  EXPECT_EQ(fp->HardDigest(), expected.HardDigest());
}

TEST(EnvCommandTest, SimAddsValgrind) {
  Result r = RunTare({"env", "--json", "--sim"});
  auto fp = env::FingerprintFromJson(nlohmann::json::parse(r.out));
  ASSERT_TRUE(fp.ok());
  EXPECT_NE(fp->Get("valgrind.version"), "");
  bool has_check = false;
  for (const auto& c : fp->checks) has_check = has_check || c.name == "valgrind";
  EXPECT_TRUE(has_check);
}

TEST(EnvCommandTest, UnknownFlagIsAUsageError) {
  CLI::App app("tare");
  int exit_code = -1;
  AddEnvCommand(app, &exit_code);
  const char* argv[] = {"tare", "env", "--frobnicate"};
  try {
    app.parse(3, argv);
    FAIL() << "expected a parse error";
  } catch (const CLI::ParseError& e) {
    // main maps CLI11's parse errors to exit status 2.
    EXPECT_NE(app.exit(e), 0);
    EXPECT_NE(std::string(e.what()).find("--frobnicate"), std::string::npos) << e.what();
  }
  EXPECT_EQ(exit_code, -1) << "the command must not run on a usage error";
}

}  // namespace
}  // namespace tare::cli
