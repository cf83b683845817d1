#include "env/fingerprint_json.h"

#include <gtest/gtest.h>

#include "env/host_fingerprint.h"

namespace tare::env {
namespace {

Fingerprint Machine(const std::string& name) {
  return CollectFingerprint(DirectoryHost(std::string(TARE_ENV_TESTDATA) + "/hosts/" + name), {.probe_valgrind = true});
}

TEST(FingerprintJsonTest, RoundTripKeepsEverything) {
  Fingerprint fp = Machine("baremetal-turbo");
  nlohmann::json j = FingerprintToJson(fp);
  EXPECT_EQ(j["schema"], "tare.fingerprint/1");
  EXPECT_EQ(j["hard_digest"], fp.HardDigest());
  EXPECT_EQ(j["keys"][0]["key"], "cpu.vendor");
  EXPECT_EQ(j["keys"][0]["hard"], true);

  auto back = FingerprintFromJson(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->keys.size(), fp.keys.size());
  for (size_t i = 0; i < fp.keys.size(); ++i) {
    EXPECT_EQ(back->keys[i].key, fp.keys[i].key);
    EXPECT_EQ(back->keys[i].value, fp.keys[i].value);
    EXPECT_EQ(back->keys[i].hard, fp.keys[i].hard);
  }
  ASSERT_EQ(back->checks.size(), fp.checks.size());
  for (size_t i = 0; i < fp.checks.size(); ++i) {
    EXPECT_EQ(back->checks[i].name, fp.checks[i].name);
    EXPECT_EQ(back->checks[i].level, fp.checks[i].level);
    EXPECT_EQ(back->checks[i].finding, fp.checks[i].finding);
    EXPECT_EQ(back->checks[i].fix, fp.checks[i].fix);
  }
  EXPECT_EQ(FingerprintToJson(*back), j);
  EXPECT_TRUE(CompareFingerprints(fp, *back).hard.empty());
  EXPECT_TRUE(CompareFingerprints(fp, *back).soft.empty());
}

TEST(FingerprintJsonTest, ErrorsNameTheField) {
  nlohmann::json good = FingerprintToJson(Machine("baremetal-tuned"));
  struct Case {
    const char* what;
    nlohmann::json j;
    const char* expected;
  };
  std::vector<Case> cases;
  cases.push_back({"not an object", nlohmann::json::array(), "expected an object, got array"});
  {
    auto j = good;
    j["schema"] = "tare.fingerprint/9";
    cases.push_back({"schema", j, "schema is \"tare.fingerprint/9\""});
  }
  {
    auto j = good;
    j.erase("keys");
    cases.push_back({"no keys", j, "missing field 'keys'"});
  }
  {
    auto j = good;
    j["keys"][3]["value"] = 42;
    cases.push_back({"value type", j, "at /keys/3/value: type must be string, but is number"});
  }
  {
    auto j = good;
    j["keys"][1].erase("hard");
    cases.push_back({"hard missing", j, "at /keys/1: missing field 'hard'"});
  }
  {
    auto j = good;
    j["checks"][0]["level"] = "fatal";
    cases.push_back({"level", j, "at /checks/0/level: level \"fatal\" is not ok, warn or info"});
  }
  {
    auto j = good;
    j["keys"][5]["value"] = "0xdeadbeef";  // microcode edited after the fact
    cases.push_back({"digest", j, "hard_digest does not match"});
  }
  for (const auto& c : cases) {
    auto fp = FingerprintFromJson(c.j);
    ASSERT_FALSE(fp.ok()) << c.what;
    EXPECT_EQ(fp.status().code(), StatusCode::kDataLoss) << c.what;
    EXPECT_NE(fp.status().message().find(c.expected), std::string::npos) << c.what << ": " << fp.status().message();
    EXPECT_EQ(fp.status().message().rfind("fingerprint JSON: ", 0), 0u);
  }
  // A soft value may change without breaking the digest (e.g. a redacted load).
  auto j = good;
  for (auto& k : j["keys"]) {
    if (k["key"] == "os.loadavg") k["value"] = "unknown";
  }
  EXPECT_TRUE(FingerprintFromJson(j).ok());
}

// Stored text goes through the one read idiom (base/json_read.h): empty or cut-short text is an error
// naming the run, never a fingerprint of no keys.
TEST(FingerprintJsonTest, StoredTextThatIsNotAFingerprintIsAnError) {
  const std::string text = FingerprintToJson(Machine("baremetal-tuned")).dump();
  auto fp = FingerprintFromJsonText(text, "run 5's fingerprint");
  ASSERT_TRUE(fp.ok()) << fp.status().message();
  EXPECT_FALSE(fp->keys.empty());
  auto cut = FingerprintFromJsonText(text.substr(0, 20), "run 5's fingerprint");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(cut.status().message().rfind("run 5's fingerprint: not valid JSON at byte 21 (", 0), 0u)
      << cut.status().message();
  EXPECT_EQ(FingerprintFromJsonText("", "run 5's fingerprint").status().message(),
            "run 5's fingerprint: empty, where JSON was expected");
  auto keys = FingerprintFromJsonText(R"({"keys":[]})", "run 5's fingerprint");
  ASSERT_FALSE(keys.ok());
  EXPECT_EQ(keys.status().message().rfind("run 5's fingerprint: fingerprint JSON: missing field 'schema'", 0), 0u)
      << keys.status().message();
}

TEST(FingerprintJsonTest, CompareListsHardAndSoftDifferences) {
  Fingerprint tuned = Machine("baremetal-tuned");
  Fingerprint turbo = Machine("baremetal-turbo");
  FingerprintComparison cmp = CompareFingerprints(tuned, turbo);
  EXPECT_FALSE(cmp.comparable());
  auto keys = [](const std::vector<KeyDifference>& diffs) {
    std::vector<std::string> out;
    for (const auto& d : diffs) out.push_back(d.key);
    return out;
  };
  EXPECT_EQ(keys(cmp.hard), (std::vector<std::string>{"cpu.model_name", "cpu.model", "cpu.stepping", "cpu.microcode",
                                                      "cpu.cores", "cpu.caches", "env.allocator"}));
  EXPECT_EQ(keys(cmp.soft),
            (std::vector<std::string>{"cpu.governor", "cpu.turbo", "cpu.smt", "cpu.isolated", "cpu.nohz_full",
                                      "os.aslr", "os.perf_event_paranoid", "os.loadavg", "host.product"}));
  EXPECT_EQ(cmp.hard[3].a, "0xd0003a5");
  EXPECT_EQ(cmp.hard[3].b, "0xf8");
  std::string summary = cmp.Summary();
  EXPECT_EQ(summary.rfind("not comparable: hard keys differ: cpu.model_name (", 0), 0u) << summary;
  EXPECT_NE(summary.find("cpu.microcode (0xd0003a5 vs 0xf8)"), std::string::npos) << summary;
  EXPECT_NE(summary.find("; soft keys differ: cpu.governor, cpu.turbo"), std::string::npos) << summary;
}

TEST(FingerprintJsonTest, SameHostDifferentMoment) {
  Fingerprint a = Machine("baremetal-tuned");
  Fingerprint b = a;
  for (auto& k : b.keys) {
    if (k.key == "os.loadavg") k.value = "1.00 0.50 0.20";
  }
  FingerprintComparison cmp = CompareFingerprints(a, b);
  EXPECT_TRUE(cmp.comparable());
  ASSERT_EQ(cmp.soft.size(), 1u);
  EXPECT_EQ(cmp.Summary(), "comparable; soft keys differ: os.loadavg");
  EXPECT_EQ(CompareFingerprints(a, a).Summary(), "same host fingerprint");
}

TEST(FingerprintJsonTest, KeyOnlyOnOneSide) {
  Fingerprint sim = Machine("baremetal-tuned");
  Fingerprint wall = CollectFingerprint(DirectoryHost(std::string(TARE_ENV_TESTDATA) + "/hosts/baremetal-tuned"), {});
  FingerprintComparison cmp = CompareFingerprints(sim, wall);
  ASSERT_EQ(cmp.hard.size(), 1u);
  EXPECT_EQ(cmp.hard[0].key, "valgrind.version");
  EXPECT_EQ(cmp.hard[0].a, "valgrind-3.19.0");
  EXPECT_EQ(cmp.hard[0].b, "(absent)");
  FingerprintComparison reverse = CompareFingerprints(wall, sim);
  ASSERT_EQ(reverse.hard.size(), 1u);
  EXPECT_EQ(reverse.hard[0].a, "(absent)");
}

TEST(FingerprintJsonTest, AHostDigestIsRecomputedFromTheKeysNeverTakenOnTrust) {
  const Fingerprint fp = Machine("baremetal-turbo");
  nlohmann::json j = FingerprintToJson(fp);
  auto ok = VerifiedHardDigest(j.dump(), fp.HardDigest());
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, fp.HardDigest());
  EXPECT_EQ(*VerifiedHardDigest(j.dump(), ""), fp.HardDigest());
  EXPECT_EQ(*VerifiedHardDigest("", ""), "");

  // One hard key edited: the fingerprint's own digest disagrees.
  nlohmann::json edited = j;
  for (auto& k : edited["keys"]) {
    if (k["hard"].get<bool>()) {
      k["value"] = "edited";
      break;
    }
  }
  auto own = VerifiedHardDigest(edited.dump(), fp.HardDigest());
  ASSERT_FALSE(own.ok());
  EXPECT_EQ(own.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(own.status().message().find("hard_digest does not match the hard keys"), std::string::npos);
  // ... its own digest removed: the record's stated one disagrees.
  edited.erase("hard_digest");
  auto stated = VerifiedHardDigest(edited.dump(), fp.HardDigest());
  ASSERT_FALSE(stated.ok());
  EXPECT_NE(stated.status().message().find("is not the digest of its fingerprint's hard keys"), std::string::npos)
      << stated.status().message();
  // ... nothing stated: the digest of what it has, which is another host's.
  auto recomputed = VerifiedHardDigest(edited.dump(), "");
  ASSERT_TRUE(recomputed.ok());
  EXPECT_NE(*recomputed, fp.HardDigest());
  // A digest with nothing to compute it from, and text that is no fingerprint, are errors.
  EXPECT_FALSE(VerifiedHardDigest("", fp.HardDigest()).ok());
  EXPECT_FALSE(VerifiedHardDigest("{not json", "").ok());
}

}  // namespace
}  // namespace tare::env
