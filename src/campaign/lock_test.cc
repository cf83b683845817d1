// The lock, and the same-length copies it pins: real files, real hashes, a real flock.
#include "campaign/lock.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "base/json_text.h"
#include "base/sha256.h"
#include "campaign/arm_stage.h"

namespace tare::campaign {
namespace {

class ArmStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "tare_lock_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/src");
    Write(dir_ + "/src/old", "#!/bin/sh\necho old\n");
    Write(dir_ + "/src/new", "#!/bin/sh\necho new\n");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
    chmod(path.c_str(), 0755);
  }
  std::vector<std::pair<std::string, std::string>> Arms() {
    return {{"base", dir_ + "/src/old"}, {"head", dir_ + "/src/new"}, {"null", dir_ + "/src/old"}};
  }
  std::string dir_;
};

TEST_F(ArmStageTest, CopiesEveryArmToAPathOfTheSameLength) {
  auto stage = ArmStage::Create(dir_ + "/bin", Arms());
  ASSERT_TRUE(stage.ok()) << stage.status().message();
  const auto& exes = (*stage)->executables();
  ASSERT_EQ(exes.size(), 3u);
  for (const auto& e : exes) {
    EXPECT_EQ(e.path, dir_ + "/bin/" + e.arm);
    EXPECT_EQ(e.path.size(), exes[0].path.size());
    EXPECT_EQ(e.sha256, *Sha256File(e.source));
    EXPECT_EQ(*Sha256File(e.path), e.sha256);
    EXPECT_EQ(access(e.path.c_str(), X_OK), 0);
  }
  EXPECT_EQ(exes[0].sha256, exes[2].sha256) << "the null arm is a copy of base";
  EXPECT_NE(exes[0].sha256, exes[1].sha256);
  EXPECT_TRUE((*stage)->CheckUnchanged().ok());
}

TEST_F(ArmStageTest, ASecondCampaignOnTheSameDirectoryIsRefused) {
  auto first = ArmStage::Create(dir_ + "/bin", Arms());
  ASSERT_TRUE(first.ok());
  auto second = ArmStage::Create(dir_ + "/bin", Arms());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("another tare ab campaign (pid " + std::to_string(getpid())),
            std::string::npos)
      << second.status().message();
  first->reset();
  EXPECT_TRUE(ArmStage::Create(dir_ + "/bin", Arms()).ok()) << "the lock goes with the stage";
}

// Issue 27, item 19: a campaign that never ran (its store could not be opened) leaves no directory
// it made, nor the lock file in it; one that ran keeps them, and a directory that existed is kept.
TEST_F(ArmStageTest, DirectoriesItMadeGoWithAStageThatNeverRan) {
  const std::string made = dir_ + "/store-dir/bin";
  {
    auto stage = ArmStage::Create(made, Arms());
    ASSERT_TRUE(stage.ok()) << stage.status().message();
    EXPECT_TRUE(std::filesystem::exists(made + "/.lock"));
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/store-dir")) << "both levels it made are removed";
  {
    auto stage = ArmStage::Create(made, Arms());
    ASSERT_TRUE(stage.ok());
    (*stage)->Keep();
  }
  EXPECT_TRUE(std::filesystem::exists(made + "/base")) << "a stage that ran keeps its copies";
  {
    std::filesystem::create_directories(dir_ + "/existing");
    auto stage = ArmStage::Create(dir_ + "/existing/bin", Arms());
    ASSERT_TRUE(stage.ok());
  }
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/existing")) << "only what the stage made is removed";
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/existing/bin"));
}

TEST_F(ArmStageTest, ARebuiltSourceStopsTheCampaign) {
  auto stage = ArmStage::Create(dir_ + "/bin", Arms());
  ASSERT_TRUE(stage.ok());
  // A rebuild: a new file replaces the head's source.
  Write(dir_ + "/src/new.tmp", "#!/bin/sh\necho newer\n");
  std::filesystem::rename(dir_ + "/src/new.tmp", dir_ + "/src/new");
  Status s = (*stage)->CheckUnchanged();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("the head executable '" + dir_ + "/src/new' changed during the campaign (sha256 " +
                             ShortHash(Sha256Hex("#!/bin/sh\necho new\n")) + " when locked, " +
                             ShortHash(Sha256Hex("#!/bin/sh\necho newer\n")) + " now)"),
            std::string::npos)
      << s.message();
}

TEST_F(ArmStageTest, ATamperedCopyStopsTheCampaignButATouchDoesNot) {
  auto stage = ArmStage::Create(dir_ + "/bin", Arms());
  ASSERT_TRUE(stage.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // Same bytes, new mtime: fine.
  std::filesystem::last_write_time(dir_ + "/bin/null", std::filesystem::file_time_type::clock::now());
  EXPECT_TRUE((*stage)->CheckUnchanged().ok());
  std::ofstream(dir_ + "/bin/null", std::ios::app) << "# patched\n";
  Status s = (*stage)->CheckUnchanged();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("running copy of the null-arm copy of base"), std::string::npos) << s.message();
}

Lock SampleLock() {
  Lock l;
  l.campaign_sha256 = std::string(64, 'c');
  l.campaign_source = "file:/w/campaign.toml";
  l.campaign_name = "knob";
  l.executables = {{"base", "/w/old", "/w/.tare/bin/base", std::string(64, 'a')},
                   {"head", "/w/new", "/w/.tare/bin/head", std::string(64, 'b')}};
  l.fingerprint = {{"schema", "tare.fingerprint/1"}};
  l.fingerprint_digest = std::string(64, 'f');
  l.tare_version = "0.1.0";
  l.created_unix_ns = 1700000000000000000;
  return l;
}

TEST(Lock, RoundTripsThroughJsonAndHashesStably) {
  Lock l = SampleLock();
  auto back = LockFromJson(LockToJson(l));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(LockSha256(*back), LockSha256(l));
  EXPECT_EQ(LockToJson(l)["schema"], "tare.lock/1");
  Lock other = l;
  other.executables[1].sha256 = std::string(64, 'd');
  EXPECT_NE(LockSha256(other), LockSha256(l));
  EXPECT_FALSE(LockFromJson(nlohmann::json{{"schema", "tare.lock/0"}}).ok());
  auto damaged = LockToJson(l);
  damaged.erase("executables");
  EXPECT_EQ(LockFromJson(damaged).status().code(), StatusCode::kDataLoss);
  // A time that is not an integer fitting int64 (lock_fuzz's 1.7e24) names the field.
  for (const nlohmann::json& t : {nlohmann::json(1.7e24), nlohmann::json(UINT64_MAX), nlohmann::json(3.0)}) {
    auto bad_time = LockToJson(l);
    bad_time["created_unix_ns"] = t;
    auto r = LockFromJson(bad_time);
    ASSERT_FALSE(r.ok()) << t.dump();
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
    EXPECT_NE(r.status().message().find("created_unix_ns"), std::string::npos) << r.status().message();
  }
}

// The work per sample: kept per cell, read back as written; a lock written before it existed has
// no "work" key and reads back to the same bytes, hence the same sha256 the ledger cited.
TEST(Lock, KeepsEveryCellsWorkAndOlderLocksHashAsBefore) {
  Lock l = SampleLock();
  const std::string before = LockSha256(l);
  EXPECT_FALSE(LockToJson(l).contains("work"));
  auto old = LockFromJson(LockToJson(l));
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(old->work.empty());
  EXPECT_EQ(LockSha256(*old), before);

  l.work = {{"BM_Fast", 131072, 0, "calibrated"}, {"BM_Knob", 0, 20'000'000, "default"}, {"BM_Slow", 7, 0, "cohort 1"}};
  const nlohmann::json j = LockToJson(l);
  EXPECT_EQ(j["work"][0], (nlohmann::json{{"cell", "BM_Fast"}, {"iterations", 131072}, {"from", "calibrated"}}));
  EXPECT_EQ(j["work"][1], (nlohmann::json{{"cell", "BM_Knob"}, {"gbench_min_time_ns", 20000000}, {"from", "default"}}));
  auto back = LockFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->work.size(), 3u);
  EXPECT_EQ(back->work[0].iterations, 131072u);
  EXPECT_EQ(back->work[1].gbench_min_time_ns, 20'000'000);
  EXPECT_EQ(back->work[2].from, "cohort 1");
  EXPECT_EQ(LockSha256(*back), LockSha256(l));
  EXPECT_NE(LockSha256(l), before);

  // An entry that fixes nothing, or a count that is not an integer that fits, is a damaged lock.
  for (const nlohmann::json& bad : {nlohmann::json{{"cell", "x"}, {"from", "default"}},
                                    nlohmann::json{{"cell", "x"}, {"from", "calibrated"}, {"iterations", -3}},
                                    nlohmann::json{{"cell", "x"}, {"from", "calibrated"}, {"iterations", 2.5}},
                                    nlohmann::json{{"cell", 7}, {"from", "calibrated"}, {"iterations", 2}}}) {
    nlohmann::json damaged = j;
    damaged["work"].push_back(bad);
    auto r = LockFromJson(damaged);
    ASSERT_FALSE(r.ok()) << bad.dump();
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  }
}

// A stored lock is read in one idiom (base/json_read.h): text that is not JSON, and JSON that is not
// a lock, are DataLoss naming the lock and the field — never a lock of defaults.
TEST(Lock, AMalformedStoredLockSaysWhereAndWhat) {
  const std::string text = DumpJson(LockToJson(SampleLock()));
  auto good = LockFromJsonText(text, "run 4's lock");
  ASSERT_TRUE(good.ok()) << good.status().message();
  EXPECT_EQ(LockSha256(*good), LockSha256(SampleLock()));

  auto cut = LockFromJsonText(text.substr(0, 40), "run 4's lock");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(cut.status().message().find("run 4's lock: not valid JSON at byte 41 ("), std::string::npos)
      << cut.status().message();

  auto empty = LockFromJsonText("", "run 4's lock");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(), "run 4's lock: empty, where JSON was expected");

  nlohmann::json j = LockToJson(SampleLock());
  j["executables"][1]["sha256"] = 7;
  auto typed = LockFromJsonText(DumpJson(j), "run 4's lock");
  ASSERT_FALSE(typed.ok());
  EXPECT_EQ(typed.status().message(),
            "run 4's lock: the stored lock is damaged or not tare.lock/1: at /executables/1/sha256: type must be "
            "string, but is number");
  j = LockToJson(SampleLock());
  j["campaign"].erase("name");
  EXPECT_EQ(LockFromJson(j).status().message(),
            "the stored lock is damaged or not tare.lock/1: at /campaign: missing field 'name'");
}

TEST(Lock, ResumeNeedsTheSameExecutablesHostAndTare) {
  Lock l = SampleLock();
  EXPECT_TRUE(CheckResumable(l, l.executables, l.fingerprint_digest, "0.1.0").ok());
  auto now = l.executables;
  now[1].sha256 = std::string(64, 'e');
  Status s = CheckResumable(l, now, std::string(64, '0'), "0.2.0");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("head '/w/new' is sha256 eeeeeeeeeeee now, bbbbbbbbbbbb at the lock"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("the host's hard fingerprint is 000000000000 now, ffffffffffff at the lock"),
            std::string::npos);
  EXPECT_NE(s.message().find("tare is version 0.2.0 now, 0.1.0 at the lock"), std::string::npos);
  EXPECT_NE(s.message().find("run without --resume"), std::string::npos);
  now = l.executables;
  now.push_back({"null", "/w/old", "/w/.tare/bin/null", std::string(64, 'a')});
  s = CheckResumable(l, now, l.fingerprint_digest, "0.1.0");
  EXPECT_NE(s.message().find("arm null was not in the locked campaign"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace tare::campaign
