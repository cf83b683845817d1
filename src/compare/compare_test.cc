#include "compare/compare.h"

#include <cmath>

#include <gtest/gtest.h>

#include "compare/compare_report.h"
#include "base/json_text.h"
#include "env/fingerprint_json.h"

namespace tare::compare {
namespace {

// A stored run built by hand: benchmarks with their measured samples.
struct Builder {
  RunData d;
  int64_t next_bench = 1;
  Builder(int64_t id, const std::string& digest = "host-a") {
    d.run.id = id;
    d.run.kind = RunKind::kRun;
    d.run.fingerprint_digest = digest;
    d.metrics.push_back({"wall_ns", "ns", Direction::kLowerIsBetter, MetricKind::kTime, "", false, {}});
    // Not marked deterministic, as a stored run's definitions come back: the catalogue says so.
    d.metrics.push_back({"sim.Ir", "count", Direction::kLowerIsBetter, MetricKind::kCount, "", false, {}});
    d.metrics.push_back(
        {"gb.counter.items_per_second", "1/s", Direction::kHigherIsBetter, MetricKind::kCount, "", false, {}});
  }
  Builder& Bench(const std::string& name, const std::string& metric, const std::vector<double>& values, int failed = 0,
                 TargetKind kind = TargetKind::kGbench) {
    const int64_t id = next_bench++;
    d.benchmarks.push_back({id, "t::" + name, name, kind});
    int64_t seq = static_cast<int64_t>(d.samples.size());
    StoredSample warm{seq, id, {}};
    warm.sample.warmup = true;
    warm.sample.values[metric] = 1e12;  // a warm-up must never be used
    d.samples.push_back(warm);
    for (double v : values) {
      StoredSample s{++seq, id, {}};
      s.sample.values[metric] = v;
      d.samples.push_back(s);
    }
    for (int i = 0; i < failed; ++i) {
      StoredSample s{++seq, id, {}};
      s.sample.outcome = SampleOutcome::kFailed;
      s.sample.error = "exit status 1";
      d.samples.push_back(s);
    }
    return *this;
  }
};

// The store's evidence of the host's drift, as CompareStoredRuns reads it: reruns of the same
// executable moved every time metric by `spread` over `runs` runs.
HostDriftSource Reruns(double spread, int64_t runs = 3) {
  return [=](const std::string&, const std::string&, const std::string&) -> StatusOr<std::optional<HostDrift>> {
    return std::optional<HostDrift>(HostDrift{spread, runs});
  };
}

std::vector<double> Ten(double scale = 1) {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back((100 + i) * scale);
  return v;
}

const BenchmarkChange& Find(const SuiteComparison& c, const std::string& name) {
  for (const auto& b : c.benchmarks) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "no benchmark " << name;
  static BenchmarkChange none;
  return none;
}

TEST(Compare, ClassifiesEveryKindOfChange) {
  Builder base(1), head(2);
  base.Bench("slower", "wall_ns", Ten())
      .Bench("faster", "wall_ns", Ten())
      .Bench("same", "wall_ns", Ten())
      .Bench("few", "wall_ns", {100, 101, 102})
      .Bench("gone", "wall_ns", Ten())
      .Bench("crashes", "wall_ns", Ten())
      .Bench("ir", "sim.Ir", {1000, 1000, 1000})
      .Bench("rate", "gb.counter.items_per_second", Ten())
      .Bench("flaky", "wall_ns", Ten());
  head.Bench("slower", "wall_ns", Ten(1.10))
      .Bench("faster", "wall_ns", Ten(0.80))
      .Bench("same", "wall_ns", Ten())
      .Bench("few", "wall_ns", {110, 111, 112})
      .Bench("crashes", "wall_ns", Ten(), 2)
      .Bench("ir", "sim.Ir", {1002, 1002, 1002})
      .Bench("rate", "gb.counter.items_per_second", Ten(0.5))
      .Bench("flaky", "wall_ns", Ten(3))
      .Bench("added", "wall_ns", Ten());
  CompareOptions o;
  o.host_drift = Reruns(0.01);
  ASSERT_TRUE(ApplyFlags(&o.config, {}, {"fla.*"}, std::nullopt).ok());
  auto c = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();

  // Head = base x 1.10 exactly: the differences of logs are ln 1.1 plus a part symmetric about 0,
  // so their median is ln 1.1 and the change +10%.
  const auto& slower = Find(*c, "slower");
  ASSERT_EQ(slower.metrics.size(), 1u);
  EXPECT_EQ(slower.cls, ChangeClass::kRegressed);
  EXPECT_NEAR(slower.metrics[0].change, 0.10, 1e-12);
  EXPECT_GT(slower.metrics[0].lo, 0);
  EXPECT_EQ(slower.metrics[0].threshold, kDefaultThreshold);
  EXPECT_EQ(slower.metrics[0].method, "mann-whitney");
  EXPECT_EQ(slower.metrics[0].n_base, 10);  // the warm-up is not used
  EXPECT_DOUBLE_EQ(slower.metrics[0].base_median, 104.5);
  EXPECT_NEAR(Find(*c, "faster").metrics[0].change, -0.20, 1e-12);
  EXPECT_EQ(Find(*c, "faster").cls, ChangeClass::kImproved);
  EXPECT_EQ(Find(*c, "same").cls, ChangeClass::kUntouched);
  EXPECT_EQ(Find(*c, "same").metrics[0].change, 0);
  // 3 against 3 at 95%: no two-sided Mann–Whitney test can reject (p >= 0.1), no interval.
  EXPECT_EQ(Find(*c, "few").cls, ChangeClass::kInconclusive);
  EXPECT_NE(Find(*c, "few").metrics[0].reason.find("too few"), std::string::npos);
  EXPECT_EQ(Find(*c, "gone").cls, ChangeClass::kMissing);
  EXPECT_EQ(Find(*c, "added").cls, ChangeClass::kNew);
  EXPECT_EQ(Find(*c, "crashes").cls, ChangeClass::kFailed);
  EXPECT_NE(Find(*c, "crashes").reason.find("2 of 12 samples failed"), std::string::npos);
  // Identical counts: exact, +0.2% beyond the 0.1% default for deterministic metrics.
  const auto& ir = Find(*c, "ir");
  EXPECT_EQ(ir.cls, ChangeClass::kRegressed);
  EXPECT_EQ(ir.metrics[0].method, "exact");
  EXPECT_NEAR(ir.metrics[0].change, 0.002, 1e-12);
  EXPECT_EQ(ir.metrics[0].threshold, kDefaultDeterministicThreshold);
  // A rate halved is worse although the number went down.
  EXPECT_EQ(Find(*c, "rate").cls, ChangeClass::kRegressed);
  EXPECT_NEAR(Find(*c, "rate").metrics[0].change, -0.5, 1e-12);
  EXPECT_EQ(Find(*c, "flaky").cls, ChangeClass::kSkipped);
  EXPECT_EQ(c->Headline(),
            "1 failed, 3 regressed, 1 inconclusive, 1 improved, 1 untouched, 1 new, 1 missing, 1 skipped");

  // Every format carries every benchmark; hostile names are escaped.
  const std::string md = RenderCompareMarkdown(*c);
  EXPECT_NE(md.find("1 failed, 3 regressed"), std::string::npos);
  const std::string csv = RenderCompareCsv(*c);
  EXPECT_NE(csv.find("\"slower\",\"wall_ns\",regressed,104.5,"), std::string::npos) << csv;
  auto j = CompareToJson(*c);
  EXPECT_EQ(j["schema"], "tare.compare/1");
  EXPECT_EQ(j["counts"]["regressed"], 3);
  EXPECT_EQ(j["benchmarks"].size(), 10u);
  const std::string console = RenderCompareConsole(*c, {});
  // (The word "same" alone is in the regressed rows' notes: "reruns of the same executable".)
  EXPECT_EQ(console.find("\nuntouched"), std::string::npos) << "untouched rows are hidden by default";
  EXPECT_NE(RenderCompareConsole(*c, {false, true}).find("\nuntouched"), std::string::npos);
  EXPECT_EQ(console.find("\x1b["), std::string::npos);
  EXPECT_NE(RenderCompareConsole(*c, {true, false}).find("\x1b[1;31mregressed"), std::string::npos);
}

TEST(Compare, ThresholdsDecideWhatCounts) {
  Builder base(1), head(2);
  base.Bench("a", "wall_ns", Ten());
  head.Bench("a", "wall_ns", Ten(1.10));
  CompareOptions o;
  o.host_drift = Reruns(0.01);
  ASSERT_TRUE(ApplyFlags(&o.config, {"15%"}, {}, std::nullopt).ok());
  auto c = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(c.ok());
  // +10%, interval [+6.857%, +13.235%] (scipy: the inversion of mannwhitneyu on these logs):
  // within 15% -> untouched; against 12% it reaches past the threshold -> inconclusive; against
  // 5% it is surely beyond -> regressed.
  EXPECT_EQ(c->benchmarks[0].cls, ChangeClass::kUntouched);
  EXPECT_NEAR(c->benchmarks[0].metrics[0].lo, 0.0685714285714, 1e-9);
  EXPECT_NEAR(c->benchmarks[0].metrics[0].hi, 0.1323529411765, 1e-9);
  EXPECT_EQ(c->benchmarks[0].metrics[0].threshold_source, "--threshold");
  EXPECT_EQ(c->benchmarks[0].metrics[0].threshold, 0.15);
  ASSERT_TRUE(ApplyFlags(&o.config, {"12%"}, {}, std::nullopt).ok());
  EXPECT_EQ(CompareRuns(base.d, head.d, o)->benchmarks[0].cls, ChangeClass::kInconclusive);
  ASSERT_TRUE(ApplyFlags(&o.config, {"5%"}, {}, std::nullopt).ok());
  EXPECT_EQ(CompareRuns(base.d, head.d, o)->benchmarks[0].cls, ChangeClass::kRegressed);
}

TEST(Compare, DifferentHostsAreRefusedUnlessAllowedAndThenMarked) {
  Builder base(1, "host-a"), head(2, "host-b");
  base.d.run.fingerprint_json = R"({"keys":[{"key":"cpu.model","value":"A","hard":true}]})";
  head.d.run.fingerprint_json = R"({"keys":[{"key":"cpu.model","value":"B","hard":true}]})";
  base.Bench("a", "wall_ns", Ten());
  head.Bench("a", "wall_ns", Ten());
  auto refused = CompareRuns(base.d, head.d, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("different hosts"), std::string::npos);
  EXPECT_NE(refused.status().message().find("--allow-different-hosts"), std::string::npos);
  CompareOptions o;
  o.allow_different_hosts = true;
  auto c = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->different_hosts);
  EXPECT_NE(RenderCompareConsole(*c, {}).find("DIFFERENT HOSTS"), std::string::npos);
  EXPECT_NE(RenderCompareMarkdown(*c).find("Different hosts"), std::string::npos);
}

TEST(Compare, RefusesCampaignsAndUnknownMetrics) {
  Builder base(1), head(2);
  base.Bench("a", "wall_ns", Ten());
  head.Bench("a", "wall_ns", Ten());
  CompareOptions o;
  o.metrics = {"nope"};
  auto bad = CompareRuns(base.d, head.d, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("--metric 'nope'"), std::string::npos);
  head.d.run.kind = RunKind::kAb;
  auto ab = CompareRuns(base.d, head.d, {});
  ASSERT_FALSE(ab.ok());
  EXPECT_NE(ab.status().message().find("tare ab"), std::string::npos);
}

TEST(Compare, OneCommandAgainstAnotherIsItsBeforeAndAfter) {
  Builder base(1), head(2);
  base.Bench("./old/prog --x", "wall_ns", Ten(), 0, TargetKind::kCommand);
  head.Bench("./new/prog --x", "wall_ns", Ten(1.2), 0, TargetKind::kCommand);
  CompareOptions o;
  o.host_drift = Reruns(0.01);
  auto c = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->benchmarks.size(), 1u);
  EXPECT_EQ(c->benchmarks[0].cls, ChangeClass::kRegressed);
  EXPECT_EQ(c->benchmarks[0].name, "./old/prog --x -> ./new/prog --x");
}

TEST(CompareReport, HostileNamesAreEscapedInEveryFormat) {
  Builder base(1), head(2);
  const std::string evil = "BM_|x\x1b]0;pwn\a<script>=1";
  base.Bench(evil, "wall_ns", Ten());
  head.Bench(evil, "wall_ns", Ten(1.5));
  auto c = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(RenderCompareConsole(*c, {}).find('\x1b'), std::string::npos);
  const std::string md = RenderCompareMarkdown(*c);
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  const std::string csv = RenderCompareCsv(*c);
  EXPECT_NE(csv.find("\"BM_|x"), std::string::npos);
}

}  // namespace
}  // namespace tare::compare

namespace tare::compare {
namespace {

TEST(Compare, WarnsWhenTheHostWasBusyOrTheExecutableIsTheSame) {
  Builder base(1), head(2);
  auto with_load = [](const char* load) {
    Fingerprint fp;
    fp.keys = {{"cpu.logical", "2", true}, {"os.loadavg", std::string(load) + " 1.00 1.00", false}};
    return DumpJson(env::FingerprintToJson(fp));
  };
  base.d.run.fingerprint_json = with_load("0.10");
  head.d.run.fingerprint_json = with_load("0.20");
  base.Bench("a", "wall_ns", Ten());
  head.Bench("a", "wall_ns", Ten());
  base.d.executables.push_back({"target", "/x/a", "aaaa1111bbbb2222", ""});
  head.d.executables.push_back({"target", "/y/a", "cccc3333", ""});
  auto quiet = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(quiet.ok());
  EXPECT_TRUE(quiet->warnings.empty());
  // Load 3.9 on 2 CPUs at the head run.
  head.d.run.fingerprint_json = with_load("3.90");
  auto busy = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(busy.ok());
  ASSERT_EQ(busy->warnings.size(), 1u);
  EXPECT_NE(busy->warnings[0].find("1-minute load 0.10 at run 1, 3.90 at run 2 (2 CPUs)"), std::string::npos)
      << busy->warnings[0];
  EXPECT_NE(RenderCompareConsole(*busy, {}).find("WARNING: the host was busy"), std::string::npos);
  // The same executable on both sides: an A/A comparison.
  head.d.run.fingerprint_json = with_load("0.20");
  head.d.executables[0].sha256 = "aaaa1111bbbb2222";
  auto same = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(same.ok());
  ASSERT_EQ(same->warnings.size(), 1u);
  EXPECT_NE(same->warnings[0].find("same executable (sha256 aaaa1111bbbb)"), std::string::npos);

  // Counts that repeat exactly do not depend on the host's load: two sim runs of a busy host are
  // compared without the load's warning (they printed it before), a time metric beside them keeps it.
  Builder sim_base(3), sim_head(4);
  sim_base.d.run.fingerprint_json = with_load("0.10");
  sim_head.d.run.fingerprint_json = with_load("3.90");
  sim_base.Bench("a", "sim.Ir", {1000, 1000, 1000});
  sim_head.Bench("a", "sim.Ir", {1100, 1100, 1100});
  CompareOptions counts_only;
  counts_only.metrics = {"sim.Ir"};
  auto counts = CompareRuns(sim_base.d, sim_head.d, counts_only);
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  ASSERT_EQ(counts->benchmarks.size(), 1u);
  ASSERT_EQ(counts->benchmarks[0].metrics.size(), 1u);
  EXPECT_EQ(counts->benchmarks[0].metrics[0].cls, ChangeClass::kRegressed);
  EXPECT_TRUE(counts->warnings.empty()) << counts->warnings[0];
  EXPECT_EQ(RenderCompareConsole(*counts, {}).find("WARNING: the host was busy"), std::string::npos);
  sim_base.Bench("b", "wall_ns", Ten());
  sim_head.Bench("b", "wall_ns", Ten());
  counts_only.metrics = {"sim.Ir", "wall_ns"};
  auto mixed = CompareRuns(sim_base.d, sim_head.d, counts_only);
  ASSERT_TRUE(mixed.ok()) << mixed.status().message();
  ASSERT_EQ(mixed->warnings.size(), 1u);
  EXPECT_NE(mixed->warnings[0].find("1-minute load 0.10 at run 3, 3.90 at run 4"), std::string::npos);
}

// Exact counts of two plain runs whose programs ran from paths of different lengths: a program that
// copies its argv[0] counts by that length, and the comparison says so. Not for timings alone, not
// for paths of one length, not for a side that is not one program's plain run.
TEST(Compare, WarnsWhenExactCountsCameFromPathsOfDifferentLengths) {
  auto compare = [](const std::string& base_path, const std::string& head_path, const char* metric,
                    const char* role = "target", bool commands = false) {
    Builder base(1), head(2);
    if (commands) {  // one command each, named by its command line: that command's before and after
      base.Bench(base_path + " --work 1", metric, {862, 862, 862}, 0, TargetKind::kCommand);
      head.Bench(head_path + " --work 1", metric, {845, 845, 845}, 0, TargetKind::kCommand);
    } else {
      base.Bench("BM_StringCopy/4096", metric, {862, 862, 862});
      head.Bench("BM_StringCopy/4096", metric, {845, 845, 845});
    }
    base.d.executables.push_back({role, base_path, "aaaa1111", ""});
    head.d.executables.push_back({role, head_path, "bbbb2222", ""});
    auto c = CompareRuns(base.d, head.d, {});
    EXPECT_TRUE(c.ok()) << c.status().message();
    return c.ok() ? c->warnings : std::vector<std::string>{"(failed)"};
  };
  const std::vector<std::string> differ = compare("/src/build/bench", "/src/build-pr-1234/bench", "sim.Ir");
  ASSERT_EQ(differ.size(), 1u);
  EXPECT_NE(differ[0].find("paths of different lengths (16 characters at run 1, 24 at run 2)"), std::string::npos)
      << differ[0];
  EXPECT_NE(differ[0].find("`tare ab`"), std::string::npos) << differ[0];
  EXPECT_TRUE(compare("/src/build-a/bench", "/src/build-b/bench", "sim.Ir").empty());
  EXPECT_TRUE(compare("/src/build/bench", "/src/build-pr-1234/bench", "wall_ns").empty());
  EXPECT_TRUE(compare("/src/build/bench", "/src/build-pr-1234/bench", "sim.Ir", "base").empty());
  // Two runs of one command each (compared as one benchmark's before and after) are warned too.
  const std::vector<std::string> commands =
      compare("/src/build/bench", "/src/build-pr-1234/bench", "sim.Ir", "target", true);
  ASSERT_EQ(commands.size(), 1u);
  EXPECT_NE(commands[0].find("(16 characters at run 1, 24 at run 2)"), std::string::npos) << commands[0];
}

}  // namespace
}  // namespace tare::compare

namespace tare::compare {
namespace {

TEST(Compare, ATimeChangeBetweenTwoRunsNeedsEvidenceOfTheHostsDrift) {
  Builder base(1), head(2);
  base.Bench("slower", "wall_ns", Ten())
      .Bench("faster", "wall_ns", Ten())
      .Bench("same", "wall_ns", Ten())
      .Bench("ir", "sim.Ir", {1000, 1000, 1000});
  head.Bench("slower", "wall_ns", Ten(1.10))
      .Bench("faster", "wall_ns", Ten(0.80))
      .Bench("same", "wall_ns", Ten())
      .Bench("ir", "sim.Ir", {1002, 1002, 1002});
  base.d.executables.push_back({"target", "/base/bench", "aaaa1111bbbb2222", ""});
  head.d.executables.push_back({"target", "/head/bench", "cccc3333dddd4444", ""});

  // No reruns stored: the +10% (interval [+6.86%, +13.24%]) could be the host's drift.
  auto none = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  const auto& slower = Find(*none, "slower").metrics.at(0);
  EXPECT_EQ(slower.cls, ChangeClass::kInconclusive);
  EXPECT_NE(slower.reason.find("+10.00% between two separate runs"), std::string::npos) << slower.reason;
  EXPECT_NE(slower.reason.find("store 4 runs of this benchmark on this host type"), std::string::npos) << slower.reason;
  EXPECT_NE(slower.reason.find("tare ab"), std::string::npos);
  EXPECT_NE(slower.reason.find("--instrument sim"), std::string::npos);
  EXPECT_TRUE(std::isnan(slower.drift));
  EXPECT_EQ(Find(*none, "faster").cls, ChangeClass::kInconclusive);
  EXPECT_EQ(Find(*none, "same").cls, ChangeClass::kUntouched) << "what is settled within the threshold stays so";
  EXPECT_EQ(Find(*none, "ir").cls, ChangeClass::kRegressed) << "deterministic counts carry no drift";

  // Reruns moved by 3% over 4 runs: +10% with its interval above +6.86% stands beyond them.
  CompareOptions o;
  o.host_drift = Reruns(0.03, 4);
  auto narrow = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(narrow.ok());
  EXPECT_EQ(Find(*narrow, "slower").cls, ChangeClass::kRegressed);
  EXPECT_DOUBLE_EQ(Find(*narrow, "slower").metrics[0].drift, 0.03);
  EXPECT_EQ(Find(*narrow, "slower").metrics[0].drift_runs, 4);
  EXPECT_EQ(Find(*narrow, "faster").cls, ChangeClass::kImproved);
  EXPECT_TRUE(std::isnan(Find(*narrow, "ir").metrics[0].drift)) << "asked only of time metrics";
  EXPECT_EQ(Find(*narrow, "slower").metrics[0].reason,
            "beyond the host's drift (±3.00% from 4 reruns of the same executable on this host type (reruns))");
  auto j = CompareToJson(*narrow);
  EXPECT_DOUBLE_EQ(j["benchmarks"][0]["metrics"][0]["rerun_spread"].get<double>(), 0.03);
  EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["rerun_runs"], 4);
  EXPECT_DOUBLE_EQ(j["benchmarks"][0]["metrics"][0]["drift"].get<double>(), 0.03);
  EXPECT_EQ(j["benchmarks"][0]["metrics"][0]["drift_source"], "reruns");

  // Issue 45, item 1: the drift from the benchmark's history (other commits' runs) is named as such.
  o.host_drift = [](const std::string&, const std::string&, const std::string&) -> StatusOr<std::optional<HostDrift>> {
    return std::optional<HostDrift>(HostDrift{0.02, 9, DriftSource::kHistory});
  };
  auto history = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(history.ok());
  EXPECT_EQ(Find(*history, "slower").cls, ChangeClass::kRegressed);
  EXPECT_EQ(Find(*history, "slower").metrics[0].reason,
            "beyond the host's drift (±2.00% from 9 recent runs of this benchmark on this host type (history))");
  auto jh = CompareToJson(*history);
  EXPECT_EQ(jh["benchmarks"][0]["metrics"][0]["drift_source"], "history");
  EXPECT_EQ(jh["benchmarks"][0]["metrics"][0]["drift_runs"], 9);
  EXPECT_TRUE(jh["benchmarks"][0]["metrics"][0]["rerun_spread"].is_null()) << "rerun_spread is the reruns' only";

  // Reruns moved by 8%: the interval's +6.86% end lies within them. The -20% speedup's interval
  // (about [-22%, -18%]) lies beyond 8%, not beyond 25%.
  o.host_drift = Reruns(0.08, 3);
  auto wide = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(wide.ok());
  const auto& within = Find(*wide, "slower").metrics.at(0);
  EXPECT_EQ(within.cls, ChangeClass::kInconclusive);
  EXPECT_NE(within.reason.find("within the host's drift (±8.00% from 3 reruns of the same executable on this host type "
                               "(reruns))"),
            std::string::npos)
      << within.reason;
  EXPECT_EQ(Find(*wide, "faster").cls, ChangeClass::kImproved);
  o.host_drift = Reruns(0.25, 3);
  EXPECT_EQ(Find(*CompareRuns(base.d, head.d, o), "faster").cls, ChangeClass::kInconclusive);

  // The same executable on both sides: whatever the reruns, any change is the host's.
  head.d.executables[0].sha256 = base.d.executables[0].sha256;
  o.host_drift = Reruns(0.01, 5);
  auto same = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(same.ok());
  const auto& drift = Find(*same, "slower").metrics.at(0);
  EXPECT_EQ(drift.cls, ChangeClass::kInconclusive);
  EXPECT_NE(drift.reason.find("same executable (sha256 aaaa1111bbbb): a change of +10.00% is the host's drift"),
            std::string::npos)
      << drift.reason;
  EXPECT_EQ(Find(*same, "ir").cls, ChangeClass::kRegressed);

  // The store failing to answer is an error, not a verdict without evidence.
  o.host_drift = [](const std::string&, const std::string&, const std::string&) -> StatusOr<std::optional<HostDrift>> {
    return Status::DataLoss("the store is damaged");
  };
  auto failed = CompareRuns(base.d, head.d, o);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("the store is damaged"), std::string::npos);
}

// What a run measured is its executables and how they were invoked (issue 44): another argument,
// --env or --cwd is another measurement; the program's own path is not (its bytes are the sha256).
TEST(Compare, TheIdentityOfWhatWasMeasuredIsTheExecutableInvokedAlike) {
  auto identity = [](const std::string& options) {
    RunRecord r;
    r.options_json = options;
    return IdentityOf(r, {{"target", "/usr/bin/gzip", "aaaa", ""}});
  };
  const auto base = identity(R"({"argv":["/usr/bin/gzip","-1","-c","f"],"cwd":"","env_overrides":[],"shell":false})");
  EXPECT_EQ(base,
            identity(R"({"argv":["/bin/gzip","-1","-c","f"],"cwd":"","env_overrides":[],"shell":false,"samples":9})"));
  EXPECT_NE(base, identity(R"({"argv":["/usr/bin/gzip","-9","-c","f"],"cwd":"","env_overrides":[],"shell":false})"));
  EXPECT_NE(base,
            identity(R"({"argv":["/usr/bin/gzip","-1","-c","f"],"cwd":"","env_overrides":["X=1"],"shell":false})"));
  EXPECT_NE(base, identity(R"({"argv":["/usr/bin/gzip","-1","-c","f"],"cwd":"/d","env_overrides":[],"shell":false})"));
  // Options that say nothing of it (an older store, a test's "{}") are alike.
  EXPECT_EQ(identity("{}"), identity(""));
}

TEST(Compare, JudgesWhatTareAbJudgesByDefault) {
  EXPECT_EQ(DefaultMetrics({"wall_ns", "gb.real_time_ns", "gb.cpu_time_ns", "peak_rss_bytes"}),
            std::vector<std::string>{"gb.cpu_time_ns"});
  EXPECT_EQ(DefaultMetrics({"wall_ns", "sim.Ir", "sim.est_cycles"}), std::vector<std::string>{"sim.Ir"});
  EXPECT_EQ(DefaultMetrics({"wall_ns", "mem.allocs", "mem.peak_live_bytes", "mem.frees"}),
            (std::vector<std::string>{"mem.allocs", "mem.peak_live_bytes"}));
  EXPECT_EQ(DefaultMetrics({"wall_ns", "perf.task_clock_ns", "user_ns"}),
            std::vector<std::string>{"perf.task_clock_ns"});
  EXPECT_EQ(DefaultMetrics({"bench.wall_ns", "bench.cpu_ns", "wall_ns"}), std::vector<std::string>{"bench.cpu_ns"});
  EXPECT_EQ(DefaultMetrics({"wall_ns", "user_ns"}), std::vector<std::string>{"wall_ns"});
  EXPECT_EQ(DefaultMetrics({"gb.counter.items_per_second"}), std::vector<std::string>{"gb.counter.items_per_second"});

  // A Google Benchmark whose real time doubled (the host was busy) but whose CPU time did not.
  Builder base(1), head(2);
  base.d.metrics.push_back(LookupMetric("gb.real_time_ns"));
  base.d.metrics.push_back(LookupMetric("gb.cpu_time_ns"));
  head.d.metrics = base.d.metrics;
  auto bench = [](Builder& b, double real_scale) {
    b.d.benchmarks.push_back({1, "t::BM_x", "BM_x", TargetKind::kGbench});
    for (int i = 0; i < 10; ++i) {
      StoredSample s{i + 1, 1, {}};
      s.sample.values = {{"gb.real_time_ns", (100 + i) * real_scale}, {"gb.cpu_time_ns", 100.0 + i}};
      b.d.samples.push_back(s);
    }
  };
  bench(base, 1);
  bench(head, 2);
  auto c = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->benchmarks.at(0).metrics.size(), 1u);
  EXPECT_EQ(c->benchmarks[0].metrics[0].metric, "gb.cpu_time_ns");
  EXPECT_EQ(c->benchmarks[0].cls, ChangeClass::kUntouched);
}

// A command that mostly waits (task-clock 1 ms of a 50 ms wall time): its wait grew by half while
// its CPU time did not. Judging the task-clock would see no change; it is judged on wall_ns
// (issue 44, item 7). A busy command (48 of 50 ms on a CPU) keeps the task-clock.
TEST(Compare, ACommandThatMostlyWaitsIsJudgedOnItsWallTime) {
  auto run = [](int64_t id, double cpu_ms, double wall_ms) {
    Builder b(id);
    b.d.metrics = {LookupMetric("wall_ns"), LookupMetric("perf.task_clock_ns")};
    b.d.benchmarks.push_back({1, "sh::cmd", "cmd", TargetKind::kCommand});
    for (int i = 0; i < 10; ++i) {
      StoredSample s{i + 1, 1, {}};
      s.sample.values = {{"wall_ns", (wall_ms + 0.01 * i) * 1e6}, {"perf.task_clock_ns", (cpu_ms + 0.001 * i) * 1e6}};
      b.d.samples.push_back(s);
    }
    return b;
  };
  auto waiting = CompareRuns(run(1, 1, 50).d, run(2, 1, 75).d, {});
  ASSERT_TRUE(waiting.ok());
  ASSERT_EQ(waiting->benchmarks.at(0).metrics.size(), 1u);
  EXPECT_EQ(waiting->benchmarks[0].metrics[0].metric, "wall_ns");
  // Two separate runs: the change is measured (+50%: 75.045 / 50.045 - 1 = 0.4995), the verdict
  // waits for the host's drift (compare.h), so no class is asserted here.
  EXPECT_NEAR(waiting->benchmarks[0].metrics[0].change, 0.4995, 0.001);
  auto busy = CompareRuns(run(1, 48, 50).d, run(2, 48, 50).d, {});
  ASSERT_TRUE(busy.ok());
  EXPECT_EQ(busy->benchmarks.at(0).metrics.at(0).metric, "perf.task_clock_ns");
}

}  // namespace
}  // namespace tare::compare

namespace tare::compare {
namespace {

TEST(Compare, ABenchmarkOfAShardTheStoreLacksIsNamedNeverLeftOut) {
  // Base: a sharded run read whole (runs 1, 2 of 2 shards). Head: only shard 1 (run 3) in the store.
  Builder base(2), head(3);
  ShardRecord shard;
  shard.count = 2;
  shard.group = "g";
  shard.assignment = {{"a", 1}, {"b", 2}, {"c", 2}, {"d", 1}};
  base.d.run.shard = shard;
  base.d.run.shard->index = 2;
  base.d.set_runs = {1, 2};
  head.d.run.shard = shard;
  head.d.run.shard->index = 1;
  head.d.set_runs = {3};
  head.d.missing_shards = {2};
  base.Bench("a", "sim.Ir", {10, 10}).Bench("b", "sim.Ir", {10, 10}).Bench("d", "sim.Ir", {10, 10});
  head.Bench("a", "sim.Ir", {10, 10}).Bench("d", "sim.Ir", {10, 10});
  auto c = CompareRuns(base.d, head.d, {});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(Find(*c, "a").cls, ChangeClass::kUntouched);
  EXPECT_EQ(Find(*c, "b").cls, ChangeClass::kInconclusive);
  EXPECT_EQ(Find(*c, "b").reason,
            "in shard 2/2 of the head side (sharded run 3), which is not in this store: not measured there");
  // c is in shard 2 too, and base has no row for it either: still a row.
  EXPECT_EQ(Find(*c, "c").cls, ChangeClass::kInconclusive);
  EXPECT_NE(Find(*c, "c").reason.find("nor on the other side"), std::string::npos) << Find(*c, "c").reason;
  EXPECT_EQ(c->Headline(), "2 inconclusive, 2 untouched");
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_NE(c->warnings[0].find("the head side, sharded run 3 (2 shards), lacks shard 2 in this store: 2 of its "
                                "benchmarks"),
            std::string::npos)
      << c->warnings[0];
  EXPECT_NE(RenderCompareConsole(*c, {}).find("runs 1, 2 -> run 3"), std::string::npos) << RenderCompareConsole(*c, {});
  auto j = CompareToJson(*c);
  EXPECT_EQ(j["base"]["runs"], nlohmann::json::array({1, 2}));
  EXPECT_EQ(j["head"]["runs"], nlohmann::json::array({3}));
  // A benchmark the store has in neither side and no shard explains is plain missing / new.
  head.Bench("e", "sim.Ir", {10, 10});
  EXPECT_EQ(Find(*CompareRuns(base.d, head.d, {}), "e").cls, ChangeClass::kNew);
}

}  // namespace
}  // namespace tare::compare

namespace tare::compare {
namespace {

// Issue 23, item 5: sim.est_cycles of two cycle models are two metrics.
TEST(Compare, EstimatesOfTwoModelsAreNeverCompared) {
  EXPECT_EQ(MetricModel(LookupMetric("sim.est_cycles")), "iai-v1");
  EXPECT_EQ(MetricModel(LookupMetric("sim.Ir")), "");
  Builder base(1), head(2);
  base.d.metrics.push_back(LookupMetric("sim.est_cycles"));
  MetricDef v2 = LookupMetric("sim.est_cycles");
  v2.description = "estimated cycles, model iai-v2: something else";
  v2.model = "iai-v2";  // a field of the definition (issue 45, item 7)
  head.d.metrics.push_back(v2);
  base.Bench("a", "sim.est_cycles", {1000, 1000});
  head.Bench("a", "sim.est_cycles", {1300, 1300});
  CompareOptions o;
  o.metrics = {"sim.est_cycles"};
  auto c = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const auto& m = c->benchmarks.at(0).metrics.at(0);
  EXPECT_EQ(m.cls, ChangeClass::kSkipped);
  EXPECT_EQ(m.reason,
            "computed by two models (iai-v1 in run 1, iai-v2 in run 2): values of different models are "
            "different metrics, never compared");
  // The same model on both sides: compared, exactly.
  head.d.metrics.back() = LookupMetric("sim.est_cycles");
  EXPECT_EQ(CompareRuns(base.d, head.d, o)->benchmarks.at(0).cls, ChangeClass::kRegressed);
}

// Issue 48, item 8: a program's own figures (app.*) may be zero or negative, and a change is a
// ratio. The rule (docs/compare.md): constant sides are compared exactly — equal is untouched, a
// change from 0 is certain but has no ratio (no figure: never inf), otherwise the difference over
// |base| (-5 -> -3 is +40%, 5 -> -3 is -160%); varying values with a zero or a negative one are
// inconclusive, saying why (they were skipped, which let a gate pass on what it never judged).
TEST(Compare, ZeroOrNegativeValuesGetAClearAnswerNeverInfinity) {
  Builder base(1), head(2);
  const MetricDef score{"app.score", "count", Direction::kLowerIsBetter, MetricKind::kCount, "", false, {}};
  base.d.metrics.push_back(score);
  head.d.metrics.push_back(score);
  std::vector<double> ramp, ramp_up, below;
  for (int i = 0; i < 10; ++i) {
    ramp.push_back(i);          // 0..9: one zero
    ramp_up.push_back(10 + i);  // 10..19
    below.push_back(-100 - i);  // all negative
  }
  base.Bench("from_zero", "app.score", {0, 0, 0})
      .Bench("negative", "app.score", {-5, -5, -5})
      .Bench("sign_change", "app.score", {5, 5, 5})
      .Bench("zeros", "app.score", {0, 0, 0})
      .Bench("ramp", "app.score", ramp)
      .Bench("below", "app.score", below)
      .Bench("to_zero", "app.score", {4, 4});
  head.Bench("from_zero", "app.score", {5, 5, 5})
      .Bench("negative", "app.score", {-3, -3, -3})
      .Bench("sign_change", "app.score", {-3, -3, -3})
      .Bench("zeros", "app.score", {0, 0, 0})
      .Bench("ramp", "app.score", ramp_up)
      .Bench("below", "app.score", below)
      .Bench("to_zero", "app.score", {0, 0});
  CompareOptions o;
  o.metrics = {"app.score"};
  o.host_drift = Reruns(0.01);
  auto c = CompareRuns(base.d, head.d, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();

  const auto& from_zero = Find(*c, "from_zero").metrics.at(0);
  EXPECT_EQ(from_zero.cls, ChangeClass::kRegressed);
  EXPECT_EQ(from_zero.method, "exact");
  EXPECT_TRUE(std::isnan(from_zero.change)) << from_zero.change;
  EXPECT_NE(from_zero.reason.find("from 0 to 5 in every sample: no ratio from zero"), std::string::npos)
      << from_zero.reason;
  EXPECT_EQ(FormatChange(from_zero), "0 -> 5 (exact, no ratio)");
  const auto& negative = Find(*c, "negative").metrics.at(0);
  EXPECT_EQ(negative.cls, ChangeClass::kRegressed);  // -3 is higher than -5: worse for lower-is-better
  EXPECT_NEAR(negative.change, 0.4, 1e-12);
  const auto& sign_change = Find(*c, "sign_change").metrics.at(0);
  EXPECT_EQ(sign_change.cls, ChangeClass::kImproved);
  EXPECT_NEAR(sign_change.change, -1.6, 1e-12);
  EXPECT_EQ(Find(*c, "zeros").cls, ChangeClass::kUntouched);
  EXPECT_EQ(Find(*c, "zeros").metrics.at(0).change, 0);
  EXPECT_NEAR(Find(*c, "to_zero").metrics.at(0).change, -1.0, 1e-12);
  EXPECT_EQ(Find(*c, "to_zero").cls, ChangeClass::kImproved);
  for (const char* name : {"ramp", "below"}) {
    const auto& m = Find(*c, name).metrics.at(0);
    EXPECT_EQ(m.cls, ChangeClass::kInconclusive) << name;
    EXPECT_TRUE(std::isnan(m.change)) << name;
    EXPECT_NE(m.reason.find("zero or negative, and a change is judged as a ratio of positive values"),
              std::string::npos)
        << m.reason;
  }
  EXPECT_NE(Find(*c, "ramp").metrics.at(0).reason.find("1 of the 20 values"), std::string::npos);
  EXPECT_NE(Find(*c, "below").metrics.at(0).reason.find("20 of the 20 values"), std::string::npos);
  // No format writes an infinity or a NaN for any of them.
  for (const std::string& text : {RenderCompareConsole(*c, {false, true}), RenderCompareMarkdown(*c),
                                  RenderCompareCsv(*c), DumpJson(CompareToJson(*c), 1)}) {
    EXPECT_EQ(text.find("inf"), std::string::npos) << text;
    EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace tare::compare
