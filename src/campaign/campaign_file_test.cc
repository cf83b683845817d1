#include "campaign/campaign_file.h"
#include "campaign/cohort_snapshot.h"
#include "campaign/sampling.h"
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tare::campaign {
namespace {

constexpr char kMinimal[] = R"toml(
[arms]
base = "old/bench"
head = "new/bench"
)toml";

TEST(CampaignFile, MinimalFileGetsTheDefaults) {
  auto spec = ParseCampaignToml(kMinimal, "c.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->base, "old/bench");
  EXPECT_EQ(spec->heads, std::vector<std::string>{"new/bench"});
  EXPECT_TRUE(spec->null_arm) << "the null arm is on by default (issue 21)";
  EXPECT_EQ(spec->sampling.initial, 20);
  EXPECT_EQ(spec->sampling.step, 20);
  EXPECT_EQ(spec->sampling.cap, 1280) << "the cap is a safety bound: the budget ends sampling";
  EXPECT_EQ(spec->sampling.growth, 2) << "the looks double";
  EXPECT_EQ(spec->budget_ns, kDefaultBudget);
  EXPECT_DOUBLE_EQ(spec->confidence, 0.95);
  EXPECT_EQ(spec->order, ArmOrder::kRotatingReversedBlocks);
  EXPECT_EQ(spec->look_scheme, LookScheme::kBonferroni);
  EXPECT_FALSE(spec->gates.has_value()) << "no gates key: the default gate applies";
  EXPECT_TRUE(spec->metrics.empty());
  EXPECT_TRUE(spec->cells.empty());
}

TEST(CampaignFile, CellsMayCarryTheirOwnAllowancesAndANoiseCap) {
  const std::string text = R"(
instrument = "sim"
noise_cap = "1.5%"
)" + std::string(kMinimal) +
                           R"(
[[cells]]
name = "BM_Decompress"
allowances = { "sim.Ir" = "0.5%" }
)";
  auto spec = ParseCampaignToml(text, "c.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_DOUBLE_EQ(spec->noise_cap, 0.015);
  ASSERT_EQ(spec->cells.size(), 1u);
  ASSERT_EQ(spec->cells[0].allowances.count("sim.Ir"), 1u);
  EXPECT_DOUBLE_EQ(spec->cells[0].allowances.at("sim.Ir").fraction, 0.005);
  EXPECT_TRUE(ValidateSpec(*spec, TargetKind::kGbench).ok());
  EXPECT_EQ(SpecToJson(*spec)["cells"][0]["allowances"]["sim.Ir"], "0.5%");
  // An allowance for a metric the campaign does not judge is refused, naming both.
  spec->cells[0].allowances["wall_ns"] = Allowance::Fraction(0.01);
  Status s = ValidateSpec(*spec, TargetKind::kGbench);
  EXPECT_NE(s.message().find("allowances names 'wall_ns', which the campaign does not judge"), std::string::npos)
      << s.message();
  auto bad = ParseCampaignToml("noise_cap = \"lots\"\n" + std::string(kMinimal), "c.toml");
  EXPECT_FALSE(bad.ok());
  auto bad_cell = ParseCampaignToml(
      std::string(kMinimal) + "[[cells]]\nname = \"x\"\nallowances = { \"sim.Ir\" = \"2\" }\n", "c.toml");
  EXPECT_FALSE(bad_cell.ok());
}

TEST(CampaignFile, EveryKeyIsRead) {
  constexpr char kFull[] = R"toml(
format = "tare.campaign/1"
name = "sort: +3%"
kind = "command"
args = ["--work", "8"]
env = { MALLOC_ARENA_MAX = "2" }
cwd = "data"
timeout = "30s"
seed = 7
order = "random-v1"
confidence = 0.9
look_scheme = "sign-test-calibrated-v1"
noise_floor = "null-estimate-v1"
gates = ["peak_rss_bytes(head) <= 2 * peak_rss_bytes(base)"]
bounds = ["p95(wall_ns, head) <= 25ms", "max(peak_rss_bytes, base) <= 64MiB"]

[arms]
base = "build-old/prog"
heads = ["build-new/prog", "build-alt/prog"]
null = true

[sampling]
initial = 12
step = 6
cap = 30

[metrics]
wall_ns = "2%"
user_ns = "noise"
"gb.counter.items_per_second" = { allowance = "1.5%", direction = "higher" }

[[cells]]
name = "small"
args = ["--size", "10"]

[[cells]]
name = "large"
role = "control"
env = { SIZE = "large" }
)toml";
  auto spec = ParseCampaignToml(kFull, "full.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->name, "sort: +3%");
  EXPECT_EQ(spec->kind, TargetKind::kCommand);
  EXPECT_EQ(spec->args, (std::vector<std::string>{"--work", "8"}));
  EXPECT_EQ(spec->env, std::vector<std::string>{"MALLOC_ARENA_MAX=2"});
  EXPECT_EQ(spec->cwd, "data");
  EXPECT_EQ(spec->timeout_ns, 30'000'000'000);
  EXPECT_EQ(spec->seed, 7u);
  EXPECT_EQ(spec->order, ArmOrder::kRandom);
  EXPECT_DOUBLE_EQ(spec->confidence, 0.9);
  EXPECT_EQ(spec->look_scheme, LookScheme::kSignTestCalibrated);
  EXPECT_EQ(spec->noise_floor, NoiseFloorRule::kEstimate);
  ASSERT_TRUE(spec->gates.has_value());
  ASSERT_EQ(spec->gates->size(), 1u);
  EXPECT_DOUBLE_EQ((*spec->gates)[0].factor, 2.0);
  ASSERT_EQ(spec->bounds.size(), 2u);
  EXPECT_DOUBLE_EQ(spec->bounds[0].limit, 25e6);
  EXPECT_DOUBLE_EQ(spec->bounds[1].limit, 64.0 * 1024 * 1024);
  EXPECT_EQ(spec->heads, (std::vector<std::string>{"build-new/prog", "build-alt/prog"}));
  EXPECT_TRUE(spec->null_arm);
  EXPECT_EQ(spec->sampling.initial, 12);
  EXPECT_EQ(spec->sampling.step, 6);
  EXPECT_EQ(spec->sampling.cap, 30);
  ASSERT_EQ(spec->metrics.size(), 3u);
  // toml++ keeps keys sorted.
  EXPECT_EQ(spec->metrics[0].name, "gb.counter.items_per_second");
  EXPECT_DOUBLE_EQ(spec->metrics[0].allowance.fraction, 0.015);
  EXPECT_EQ(spec->metrics[0].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(spec->metrics[1].name, "user_ns");
  EXPECT_TRUE(spec->metrics[1].allowance.noise);
  EXPECT_EQ(spec->metrics[2].name, "wall_ns");
  EXPECT_DOUBLE_EQ(spec->metrics[2].allowance.fraction, 0.02);
  ASSERT_EQ(spec->cells.size(), 2u);
  EXPECT_EQ(spec->cells[0].name, "small");
  EXPECT_EQ(spec->cells[0].role, CellRole::kTarget);
  EXPECT_EQ(spec->cells[0].args, (std::vector<std::string>{"--size", "10"}));
  EXPECT_EQ(spec->cells[1].role, CellRole::kControl);
  EXPECT_EQ(spec->cells[1].env, std::vector<std::string>{"SIZE=large"});
}

TEST(CampaignFile, TheExampleCampaignParses) {
  std::ifstream in(std::string(TARE_CAMPAIGN_TESTDATA) + "/../../../examples/ab_knob/campaign.toml");
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  auto spec = ParseCampaignToml(ss.str(), "examples/ab_knob/campaign.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_TRUE(spec->null_arm);
  // Paths are the runner's to check; the metrics must suit commands.
  ASSERT_EQ(spec->metrics.size(), 2u);
  for (const auto& m : spec->metrics) {
    EXPECT_TRUE(m.name == "wall_ns" || m.name == "perf.task_clock_ns") << m.name;
  }
  EXPECT_EQ(spec->cells.size(), 2u);
}

struct BadCase {
  const char* what;
  std::string text;
  std::string expected;  // a substring of the message
};

class BadCampaignFile : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadCampaignFile, IsRefusedWithAMessageNamingTheField) {
  const BadCase& c = GetParam();
  auto spec = ParseCampaignToml(c.text, "bad.toml");
  ASSERT_FALSE(spec.ok()) << c.what;
  EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(spec.status().message().find(c.expected), std::string::npos) << c.what << ": " << spec.status().message();
  EXPECT_EQ(spec.status().message().rfind("bad.toml", 0), 0u) << spec.status().message();
}

const std::string kArms = "[arms]\nbase = \"a\"\nhead = \"b\"\n";

INSTANTIATE_TEST_SUITE_P(
    EveryKindOfMistake, BadCampaignFile,
    ::testing::Values(
        BadCase{"not TOML", "[arms\nbase = 1", "bad.toml:1:6: not valid TOML"},
        BadCase{"unknown top-level key", "sampels = 3\n" + kArms,
                "bad.toml:1: sampels: unknown key; the keys here are: "},
        BadCase{"no arms", "name = \"x\"\n", "bad.toml: arms: missing; declare [arms]"},
        BadCase{"arms not a table", "arms = 3\n", "bad.toml:1: arms: expected a table, got an integer"},
        BadCase{"no base", "[arms]\nhead = \"b\"\n", "arms.base: missing"},
        BadCase{"no head", "[arms]\nbase = \"a\"\n", "arms.head: missing"},
        BadCase{"unknown arm key", "[arms]\nbase = \"a\"\nhead = \"b\"\nnul = true\n",
                "bad.toml:4: arms.nul: unknown key"},
        BadCase{"base not a string", "[arms]\nbase = 3\nhead = \"b\"\n",
                "bad.toml:2: arms.base: expected a string, got an integer"},
        BadCase{"head and heads", "[arms]\nbase = \"a\"\nhead = \"b\"\nheads = [\"c\"]\n",
                "arms.heads: give the heads once"},
        BadCase{"heads empty", "[arms]\nbase = \"a\"\nheads = []\n", "arms.heads: needs at least one head"},
        BadCase{"null not bool", "[arms]\nbase = \"a\"\nhead = \"b\"\nnull = \"yes\"\n",
                "bad.toml:4: arms.null: expected true or false, got a string"},
        BadCase{"cap as string", kArms + "[sampling]\ncap = \"40\"\n",
                "bad.toml:5: sampling.cap: expected an integer, got a string"},
        BadCase{"unknown sampling key", kArms + "[sampling]\nmax = 40\n", "sampling.max: unknown key"},
        BadCase{"cap below initial", kArms + "[sampling]\ninitial = 20\ncap = 10\n",
                "sampling: sampling.cap = 10 is below sampling.initial = 20"},
        BadCase{"initial zero", kArms + "[sampling]\ninitial = 0\n", "sampling.initial = 0"},
        BadCase{"bare number allowance", kArms + "[metrics]\nwall_ns = \"2\"\n",
                "bad.toml:5: metrics.wall_ns: allowance '2' is not understood"},
        BadCase{"allowance as number", kArms + "[metrics]\nwall_ns = 2\n", "metrics.wall_ns: expected an allowance"},
        BadCase{"bad direction", kArms + "[metrics]\nwall_ns = { direction = \"down\" }\n",
                "metrics.wall_ns.direction: 'down' is not 'lower' or 'higher'"},
        BadCase{"unknown metric key", kArms + "[metrics]\nwall_ns = { allow = \"2%\" }\n",
                "metrics.wall_ns.allow: unknown key"},
        BadCase{"empty metrics", kArms + "[metrics]\n", "metrics: the table is empty"},
        BadCase{"bad order", "order = \"abba\"\n" + kArms, "bad.toml:1: order: unknown arm order 'abba'"},
        BadCase{"bad look scheme", "look_scheme = \"pocock\"\n" + kArms, "look_scheme: unknown look scheme 'pocock'"},
        BadCase{"bad noise floor", "noise_floor = \"max\"\n" + kArms, "noise_floor: unknown noise floor rule 'max'"},
        BadCase{"confidence as percent", "confidence = 95\n" + kArms,
                "bad.toml:1: confidence: 95 is not between 0 and 1"},
        BadCase{"bad timeout", "timeout = \"soon\"\n" + kArms, "timeout: 'soon' is not a duration"},
        BadCase{"endless timeout", "timeout = \"200h\"\n" + kArms, "timeout: '200h' is longer than 7 days"},
        BadCase{"negative seed", "seed = -1\n" + kArms, "seed: must be 0 or more"},
        BadCase{"bad kind", "kind = \"python\"\n" + kArms, "kind: 'python' is not auto, command, gbench or tare"},
        BadCase{"bad format", "format = \"tare.campaign/9\"\n" + kArms,
                "format: 'tare.campaign/9' is not a format this tare reads"},
        BadCase{"args not strings", "args = [\"--n\", 3]\n" + kArms,
                "bad.toml:1: args[1]: expected a string, got an integer"},
        BadCase{"env not a table", "env = [\"A=1\"]\n" + kArms, "env: expected a table"},
        // Issue 27, item 15: a NUL was accepted and exec cut the string at it.
        BadCase{"NUL in args", "args = [\"--n\", \"a\\u0000b\"]\n" + kArms,
                "bad.toml:1: args[1]: 'a\\x00b' holds a NUL byte (\\u0000)"},
        BadCase{"NUL in an env value", "env = { A = \"x\\u0000\" }\n" + kArms,
                "bad.toml:1: env.A: 'x\\x00' holds a NUL byte"},
        BadCase{"NUL in an env key", "env = { \"A\\u0000B\" = \"x\" }\n" + kArms,
                "bad.toml:1: env: 'A\\x00B' is not an environment variable name"},
        BadCase{"NUL in a cell's args", kArms + "[[cells]]\nname = \"x\"\nargs = [\"\\u0000\"]\n",
                "bad.toml:6: cells[0].args[0]: '\\x00' holds a NUL byte"},
        BadCase{"bad gate", "gates = [\"rss(head) < 2\"]\n" + kArms, "gates[0]: gate \"rss(head) < 2\": expected '<='"},
        BadCase{"gate unit mismatch", "gates = [\"peak_rss_bytes(head) <= peak_rss_bytes(base) + 8ms\"]\n" + kArms,
                "the unit 'ms' does not suit peak_rss_bytes"},
        BadCase{"bad bound statistic", "bounds = [\"p42(wall_ns, head) <= 1ms\"]\n" + kArms,
                "bounds[0]: bound \"p42(wall_ns, head) <= 1ms\": 'p42' is not a statistic"},
        BadCase{"bound unknown unit", "bounds = [\"p95(wall_ns, head) <= 3 fortnights\"]\n" + kArms, "bounds[0]"},
        BadCase{"cells as a table", kArms + "[cells]\nname = \"x\"\n", "cells: expected [[cells]] tables"},
        BadCase{"cell without name", kArms + "[[cells]]\nrole = \"target\"\n", "cells[0].name: missing"},
        BadCase{"cell bad role", kArms + "[[cells]]\nname = \"x\"\nrole = \"baseline\"\n",
                "cells[0].role: 'baseline' is not 'target' or 'control'"},
        BadCase{"cell unknown key", kArms + "[[cells]]\nname = \"x\"\nargv = []\n", "cells[0].argv: unknown key"},
        BadCase{"filter and cells", "filter = \"BM_.*\"\n" + kArms + "[[cells]]\nname = \"x\"\n",
                "filter: give either [[cells]] or filter, not both"}));

TEST(CampaignSpec, ValidationNamesTheFieldAndTheFix) {
  CampaignSpec spec;
  spec.base = "/a";
  spec.heads = {"/b"};
  EXPECT_TRUE(ValidateSpec(spec, TargetKind::kCommand).ok());

  CampaignSpec metric = spec;
  metric.metrics = {{"gb.real_time_ns", Allowance::Noise(), std::nullopt}};
  Status s = ValidateSpec(metric, TargetKind::kCommand);
  EXPECT_NE(s.message().find("metric 'gb.real_time_ns' is not measured for command targets under the wall "
                             "instrument; choose from wall_ns"),
            std::string::npos)
      << s.message();
  metric.metrics = {{"gb.counter.items", Allowance::Noise(), std::nullopt}};
  EXPECT_TRUE(ValidateSpec(metric, TargetKind::kGbench).ok());
  metric.metrics = {{"bench.items", Allowance::Noise(), std::nullopt}};
  EXPECT_TRUE(ValidateSpec(metric, TargetKind::kTare).ok());
  metric.instrument = Instrument::kSim;
  metric.metrics = {{"sim.Ir", Allowance::Noise(), std::nullopt}};
  EXPECT_TRUE(ValidateSpec(metric, TargetKind::kCommand).ok());
  metric.metrics = {{"wall_ns", Allowance::Noise(), std::nullopt}};
  s = ValidateSpec(metric, TargetKind::kCommand);
  EXPECT_NE(s.message().find("metric 'wall_ns' is not measured for command targets under the sim instrument; "
                             "choose from sim.Ir"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(DefaultMetrics(TargetKind::kCommand, Instrument::kSim)[0].name, "sim.Ir");
  EXPECT_EQ(DefaultMetrics(TargetKind::kCommand, Instrument::kWall, false)[0].name, "wall_ns");
  EXPECT_EQ(DefaultMetrics(TargetKind::kTare)[0].name, "bench.cpu_ns");

  CampaignSpec looks = spec;
  looks.sampling = {6, 6, 30};
  s = ValidateSpec(looks, TargetKind::kCommand);
  EXPECT_NE(s.message().find("initial=6 pairs cannot give the 99% per-look"), std::string::npos) << s.message();

  CampaignSpec twice = spec;
  twice.cells = {{"a", CellRole::kTarget, {}, {}, {}}, {"a", CellRole::kTarget, {}, {}, {}}};
  s = ValidateSpec(twice, TargetKind::kCommand);
  EXPECT_NE(s.message().find("cells[1]: the name 'a' is used twice"), std::string::npos) << s.message();

  CampaignSpec null_rule = spec;
  null_rule.null_arm = false;
  null_rule.bounds = {*ParseBound("p95(wall_ns, null) <= 1ms")};
  s = ValidateSpec(null_rule, TargetKind::kCommand);
  EXPECT_NE(s.message().find("names the arm 'null', which this campaign does not have (arms: base, head; add "
                             "the null arm"),
            std::string::npos)
      << s.message();
}

TEST(CampaignSpec, ArmNamesAllHaveFourCharacters) {
  CampaignSpec spec;
  spec.heads = {"a", "b", "c"};
  spec.null_arm = true;
  EXPECT_EQ(ArmNames(spec), (std::vector<std::string>{"base", "head", "hd02", "hd03", "null"}));
  for (const auto& name : ArmNames(spec)) EXPECT_EQ(name.size(), 4u);
  EXPECT_EQ(RoleOfArm("hd03"), ArmRole::kHead);
  EXPECT_EQ(RoleOfArm("null"), ArmRole::kNull);
}

TEST(CampaignSpec, CanonicalJsonDependsOnEveryDeclaredSetting) {
  CampaignSpec a;
  a.base = "/x/base";
  a.heads = {"/x/head"};
  CampaignSpec b = a;
  EXPECT_EQ(SpecToJson(a).dump(), SpecToJson(b).dump());
  b.sampling.cap = 80;
  EXPECT_NE(SpecToJson(a).dump(), SpecToJson(b).dump());
  b = a;
  b.null_arm = false;
  EXPECT_NE(SpecToJson(a).dump(), SpecToJson(b).dump());
  b = a;
  b.args = {"--input", "x"};
  EXPECT_NE(SpecToJson(a).dump(), SpecToJson(b).dump());
}

TEST(CampaignSpec, RelativePathsAreTakenFromTheCampaignDirectory) {
  CampaignSpec spec;
  spec.base = "../build/base";
  spec.heads = {"/abs/head"};
  spec.cwd = "data";
  CampaignSpec r = ResolveSpecPaths(spec, "/work/campaigns");
  EXPECT_EQ(r.base, "/work/build/base");
  EXPECT_EQ(r.heads[0], "/abs/head");
  EXPECT_EQ(r.cwd, "/work/campaigns/data");
}

namespace tare::campaign {
namespace {

TEST(CampaignFile, GbenchMinTimeIsReadValidatedAndKeepsOldIdentities) {
  auto plain = ParseCampaignToml(kMinimal, "c.toml");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->gbench_min_time_ns, 0);
  // Unset, the canonical JSON has no such key: campaigns declared before it existed keep their identity.
  EXPECT_FALSE(SpecToJson(*plain).contains("gbench_min_time_ns"));

  auto spec = ParseCampaignToml("gbench_min_time = \"50ms\"\n" + std::string(kMinimal), "c.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->gbench_min_time_ns, 50'000'000);
  EXPECT_EQ(SpecToJson(*spec)["gbench_min_time_ns"], 50'000'000);
  EXPECT_NE(CampaignIdentity(*spec), CampaignIdentity(*plain));
  EXPECT_TRUE(ValidateSpec(*spec, TargetKind::kGbench).ok());

  Status s = ValidateSpec(*spec, TargetKind::kCommand);
  EXPECT_NE(s.message().find("applies to Google Benchmark binaries; this campaign's base is a command"),
            std::string::npos)
      << s.message();
  spec->gbench_min_time_ns = 100'000;  // 0.1 ms
  s = ValidateSpec(*spec, TargetKind::kGbench);
  EXPECT_NE(s.message().find("outside 1ms..60s"), std::string::npos) << s.message();
  spec->gbench_min_time_ns = 50'000'000;
  spec->instrument = Instrument::kSim;
  s = ValidateSpec(*spec, TargetKind::kGbench);
  EXPECT_NE(s.message().find("no effect under --instrument sim"), std::string::npos) << s.message();

  auto bad = ParseCampaignToml("gbench_min_time = \"soon\"\n" + std::string(kMinimal), "c.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("gbench_min_time"), std::string::npos) << bad.status().message();
}

}  // namespace
}  // namespace tare::campaign

namespace tare::campaign {
namespace {

TEST(CampaignFile, LayoutsAreReadValidatedAndKeepOldIdentities) {
  auto plain = ParseCampaignToml(kMinimal, "c.toml");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->layouts, 1);
  EXPECT_FALSE(SpecToJson(*plain).contains("layouts"));
  auto spec = ParseCampaignToml("layouts = 4\n" + std::string(kMinimal), "c.toml");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->layouts, 4);
  EXPECT_EQ(SpecToJson(*spec)["layouts"], 4);
  EXPECT_TRUE(ValidateSpec(*spec, TargetKind::kCommand).ok());
  spec->layouts = 0;
  EXPECT_NE(ValidateSpec(*spec, TargetKind::kCommand).message().find("layouts 0 is outside 1..8"), std::string::npos);
  EXPECT_FALSE(ParseCampaignToml("layouts = \"many\"\n" + std::string(kMinimal), "c.toml").ok());
  EXPECT_EQ(LayoutCellName("BM_X/8", 2), "BM_X/8 [layout 2]");
  EXPECT_EQ(LayoutEnv(0), "TARE_LAYOUT=");
  EXPECT_EQ(LayoutEnv(2).size(), std::string("TARE_LAYOUT=").size() + 2 * kLayoutPadBytes);
}

}  // namespace
}  // namespace tare::campaign

// A cell read back from the store under --layouts: its declared cell and layout from its name,
// which only LayoutCellName's spelling, inside the cohort's layouts, gives.
TEST(CampaignSpec, ACellNameGivesItsDeclaredCellAndLayoutBack) {
  SnapshotCell c = SnapshotCellNamed(LayoutCellName("BM_X/8 [layout 1]", 3), 4);
  EXPECT_EQ(c.declared, "BM_X/8 [layout 1]");
  EXPECT_EQ(c.layout, 3);
  EXPECT_EQ(SnapshotCellNamed("300 [layout 0]", 4).declared, "300");
  for (const char* name :
       {"BM_X [layout 4]", "BM_X [layout -1]", "BM_X [layout 01]", "BM_X [layout 1] ", "BM_X", "[layout 1", ""}) {
    const SnapshotCell other = SnapshotCellNamed(name, 4);
    EXPECT_EQ(other.layout, -1) << name;
    EXPECT_EQ(other.declared, name);
  }
  EXPECT_EQ(SnapshotCellNamed("BM_X [layout 1]", 1).layout, -1) << "one layout: no layout cells";
}

// A declared step means evenly spaced looks (the plan before the time-based default); growth = 2
// keeps doubling; budget = "none" and "default" are budgets too.
TEST(CampaignFile, ADeclaredStepSpacesTheLooksEvenly) {
  auto even = ParseCampaignToml("[arms]\nbase = \"a\"\nhead = \"b\"\n[sampling]\ninitial = 10\nstep = 10\ncap = 40\n",
                                "c.toml");
  ASSERT_TRUE(even.ok()) << even.status().message();
  EXPECT_EQ(even->sampling.growth, 1);
  EXPECT_EQ(LookPairCounts(even->sampling), (std::vector<int64_t>{10, 20, 30, 40}));
  auto doubling = ParseCampaignToml(
      "budget = \"none\"\n[arms]\nbase = \"a\"\nhead = \"b\"\n[sampling]\nstep = 10\ncap = 100\ngrowth = 2\n",
      "c.toml");
  ASSERT_TRUE(doubling.ok()) << doubling.status().message();
  EXPECT_EQ(LookPairCounts(doubling->sampling), (std::vector<int64_t>{20, 30, 50, 90, 100}));
  EXPECT_EQ(doubling->budget_ns, kNoBudget);
  EXPECT_EQ(BudgetNs(*doubling, 3), 0);
  auto bad = ParseCampaignToml("[arms]\nbase = \"a\"\nhead = \"b\"\n[sampling]\ngrowth = 3\n", "c.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("sampling.growth = 3: use 1"), std::string::npos) << bad.status().message();
  auto budget = ParseCampaignToml("budget = \"soon\"\n[arms]\nbase = \"a\"\nhead = \"b\"\n", "c.toml");
  ASSERT_FALSE(budget.ok());
  EXPECT_NE(budget.status().message().find("'none' (no budget"), std::string::npos) << budget.status().message();
}

// The default budget: 30 s per cell, at most 10 minutes; a declared one as declared.
TEST(CampaignFile, TheDefaultBudgetScalesWithTheCells) {
  CampaignSpec spec;
  EXPECT_EQ(BudgetNs(spec, 1), 30'000'000'000);
  EXPECT_EQ(BudgetNs(spec, 3), 90'000'000'000);
  EXPECT_EQ(BudgetNs(spec, 19), 570'000'000'000);
  EXPECT_EQ(BudgetNs(spec, 20), 600'000'000'000);
  EXPECT_EQ(BudgetNs(spec, 500), 600'000'000'000);
  spec.budget_ns = 5'000'000'000;
  EXPECT_EQ(BudgetNs(spec, 500), 5'000'000'000);
}

// Stored specs: the default budget and doubling looks are recorded, and a spec stored before them
// (budget_ns 0, no budget_rule, no growth) reads back as no budget and evenly spaced looks.
TEST(CampaignFile, StoredSpecsKeepTheirBudgetAndLooks) {
  CampaignSpec spec;
  spec.base = "/a";
  spec.heads = {"/b"};
  nlohmann::json j = SpecToJson(spec);
  EXPECT_EQ(j["budget_rule"], kDefaultBudgetV1);
  EXPECT_EQ(j["sampling"]["growth"], 2);
  auto back = SpecFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->budget_ns, kDefaultBudget);
  EXPECT_EQ(back->sampling.growth, 2);
  EXPECT_EQ(CampaignIdentity(*back), CampaignIdentity(spec));

  j.erase("budget_rule");
  j["sampling"].erase("growth");
  auto old = SpecFromJson(j);
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_EQ(old->budget_ns, kNoBudget);
  EXPECT_EQ(old->sampling.growth, 1);
  EXPECT_EQ(SpecToJson(*old), j) << "an old spec keeps its identity";
}

}  // namespace
}  // namespace tare::campaign
