// Bad input through the real tare binary (issue 9): every case exits 2 with a message naming the
// flag or file, before anything is measured, and leaves what is already stored byte for byte as
// it was. Also: bytes that are not UTF-8 in a child's output and in tare's own argv are stored and
// exported (as U+FFFD) instead of aborting tare.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../tare_process.h"
#include "base/files.h"
#include "base/sha256.h"

namespace {

using tare::e2e::Result;
namespace fs = std::filesystem;

class BadInputE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_bad_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = dir_ + "/store/tare.db";
  }
  void TearDown() override { fs::remove_all(dir_); }

  Result Tare(std::vector<std::string> args) { return tare::e2e::RunTare(TARE_BIN, dir_, std::move(args)); }

  // sha256 of the store's file; "" when there is none.
  std::string StoreDigest() {
    auto bytes = tare::ReadFile(store_);
    return bytes.ok() ? tare::Sha256Hex(*bytes) : "";
  }

  std::string dir_;
  std::string store_;
};

struct Case {
  std::vector<std::string> args;
  std::string message;  // must appear in stderr
};

TEST_F(BadInputE2E, EveryCaseExitsTwoNamesTheFlagAndLeavesTheStoreAsItWas) {
  ASSERT_EQ(Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "/bin/true"}).exit_code, 0);
  const std::string before = StoreDigest();
  ASSERT_FALSE(before.empty());
  fs::create_directories(dir_ + "/a_dir");
  const std::string head = dir_ + "/head";
  fs::copy_file("/bin/true", head);
  { std::ofstream(dir_ + "/campaign.toml") << "[arms]\nbase = \"/bin/true\"\nhead = \"" << head << "\"\n"; }

  const std::vector<Case> cases = {
      // Item 13: numbers.
      {{"run", "--store", store_, "--samples", "-1", "/bin/true"}, "--samples"},
      {{"run", "--store", store_, "--warmup", "-1", "/bin/true"}, "--warmup"},
      {{"run", "--store", store_, "--iterations", "0", "/bin/true"}, "--iterations"},
      {{"run", "--store", store_, "--timeout", "0", "/bin/true"}, "--timeout"},
      {{"run", "--store", store_, "--timeout", "1e99s", "/bin/true"}, "7 days"},
      {{"run", "--store", store_, "--shell", ""}, "--shell"},
      {{"ab", "--store", store_, "--seed", "-1", "--base", "/bin/true", "--head", head}, "--seed"},
      {{"ab", "--store", store_, "--timeout", "1e99s", "--base", "/bin/true", "--head", head}, "--timeout"},
      {{"runs", "--store", store_, "--limit", "-1"}, "--limit"},
      // Items 5 and 12: output paths, refused before the first sample.
      {{"run", "--store", store_, "--json", store_, "/bin/true"}, "is the store"},
      {{"run", "--store", store_, "--json", dir_ + "/store/../store/tare.db-wal", "/bin/true"}, "write-ahead log"},
      {{"run", "--store", store_, "--json", dir_ + "/a_dir", "/bin/true"}, "is a directory"},
      {{"run", "--store", store_, "--json", dir_ + "/missing/out.json", "/bin/true"}, "does not exist"},
      {{"export", "--store", store_, "-o", store_}, "is the store"},
      {{"export", "--store", store_, "-o", dir_ + "/a_dir"}, "is a directory"},
      {{"ab", "--store", store_, "--ledger", store_, "--base", "/bin/true", "--head", head}, "is the store"},
      {{"ab", "--store", store_, "--json", store_ + "-shm", "--base", "/bin/true", "--head", head}, "--json"},
      {{"ab", "--store", store_, "--ledger", dir_ + "/campaign.toml", dir_ + "/campaign.toml"}, "the campaign file"},
      {{"ab", "--store", store_, "--json", head, "--base", "/bin/true", "--head", head}, "head executable"},
      // Item 16: messages.
      {{"bogus"}, "unknown subcommand 'bogus'; the subcommands are: run"},
      {{"ab", "--store", store_, "--head", head}, "--base is required"},
      {{"ab", "--store", store_, "--base", dir_ + "/a_dir", "--head", head}, "--base '" + dir_ + "/a_dir' is a directory"},
      {{"ab", "--store", store_, dir_ + "/a_dir"}, "is a directory"},
      // Issue 13: a tare flag after the target is ambiguous without `--`.
      {{"run", "--store", store_, "sort", "f", "-n", "2"}, "'-n' after the target 'sort' is also an option"},
      {{"run", "--store", store_, "/bin/true", "--samples=3"}, "put `--` before the target"},
      // Issue 11: provenance flags.
      {{"run", "--store", store_, "--commit", "xyz", "/bin/true"}, "--commit 'xyz' is not a commit id"},
      {{"run", "--store", store_, "--tag", "novalue", "/bin/true"}, "--tag 'novalue' is not KEY=VALUE"},
      {{"ab", "--store", store_, "--tag", "k=1", "--tag", "k=2", "--base", "/bin/true", "--head", head}, "given twice"},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    Result r = Tare(c.args);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << shown << "\n" << r.err;
    EXPECT_EQ(StoreDigest(), before) << shown << ": the store changed";
  }
  EXPECT_TRUE(fs::is_directory(dir_ + "/a_dir"));
  EXPECT_FALSE(fs::exists(dir_ + "/missing"));
}

// Item 2: a child's stderr, an argv element and an --env value that are not UTF-8. nlohmann's
// dump() threw type_error 316 (exit 134) in `run --json` and in every later `export` of the run.
// The store keeps argv and options as JSON (each invalid byte replaced by U+FFFD) and the stderr
// tail byte for byte; tare.run/2 carries a tail that is not UTF-8 as {"base64"} (docs/json.md).
TEST_F(BadInputE2E, BytesThatAreNotUtf8AreStoredAndExportedSafely) {
  const std::string bad = "x\377\376y";
  Result r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "--json", dir_ + "/run.json",
                   "--env", "TARE_ODD=" + bad, "--", "/bin/sh", "-c", "printf 'x\\377y' >&2; exit 3", bad});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // the sample failed (exit 3): stored with its stderr
  auto run_json = nlohmann::json::parse(tare::e2e::Slurp(dir_ + "/run.json"));
  Result e = Tare({"export", "--store", store_});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  auto doc = nlohmann::json::parse(e.out);
  // export adds what `run --json` leaves out (kept profiles, a cohort's campaign); the rest is equal.
  nlohmann::json common = doc;
  common.erase("artifacts");
  common.erase("campaign");
  EXPECT_EQ(common, run_json);
  const std::string replaced = "x\xEF\xBF\xBD\xEF\xBF\xBDy";  // each invalid byte -> U+FFFD
  EXPECT_EQ(doc["run"]["command_line"].back(), replaced) << doc["run"]["command_line"].dump();
  const auto& sample = doc["benchmarks"][0]["samples"][0];
  EXPECT_EQ(sample["stderr_tail"]["base64"], "eP95") << sample.dump();  // x \377 y, exactly
  EXPECT_NE(doc["run"]["options"].dump().find(replaced), std::string::npos) << doc["run"]["options"].dump();
}

}  // namespace
