// `tare run` the hyperfine way, end to end through the real binary: several commands interleaved
// in fresh processes and compared from paired samples, hyperfine's flag names (--runs, --prepare,
// --setup, --conclude, -N, --parameter-scan/-list, --export-*), colour, and one Usage line in every
// subcommand's --help.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "run_fixture.h"
#include "store/store.h"

namespace {

using tare::e2e::Result;
using tare::e2e::Slurp;

class CommandsE2E : public tare::e2e::RunFixture {
 protected:
  std::vector<std::string> Names(const tare::RunData& d) {
    std::vector<std::string> out;
    for (const auto& b : d.benchmarks) out.push_back(b.name);
    return out;
  }
};

// The interval of the summary, recomputed here from the stored samples without tare's stats code:
// pairs by block, d = ln(slow/fast), sorted; at 95% the sign test's interval for n = 6 is
// [d(1), d(6)] (1 - 2 * 0.5^6 = 96.9%; n = 5 would reach only 93.75%: Conover 1999, §3.2), and
// the estimate is exp(median d).
TEST_F(CommandsE2E, SeveralCommandsRunInterleavedAndTheSlowerIsSaidWithAPairedInterval) {
  Result r = Tare({"run", "--runs", "6", "--warmup", "1", "--store", store_, "--export-json", dir_ + "/r.json",
                   "--export-markdown", dir_ + "/r.md", "--export-csv", dir_ + "/r.csv", "sleep 0.02", "sleep 0.05"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  tare::RunData d = LoadLatest();
  ASSERT_EQ(Names(d), (std::vector<std::string>{"sleep 0.02", "sleep 0.05"})) << "named as the user wrote them";
  ASSERT_EQ(d.samples.size(), 14u);
  // Interleaved: each round runs both commands back to back (one block), in the given order in
  // even rounds and reversed in odd ones, so neither always runs right after the other.
  for (size_t i = 0; i + 1 < d.samples.size(); i += 2) {
    const int64_t first = i / 2 % 2 == 0 ? d.benchmarks[0].id : d.benchmarks[1].id;
    EXPECT_EQ(d.samples[i].benchmark_id, first) << "seq " << i;
    EXPECT_NE(d.samples[i].benchmark_id, d.samples[i + 1].benchmark_id) << "seq " << i;
    EXPECT_EQ(d.samples[i].sample.block, d.samples[i + 1].sample.block);
    EXPECT_EQ(d.samples[i].sample.block, static_cast<int64_t>(i / 2));
  }
  std::map<int64_t, std::map<int64_t, double>> wall;  // benchmark -> block -> wall_ns
  for (const auto& s : d.samples) {
    if (!s.sample.warmup) wall[s.benchmark_id][s.sample.block] = s.sample.values.at("wall_ns");
  }
  const int64_t fast = d.benchmarks[0].id, slow = d.benchmarks[1].id;
  std::vector<double> logs;
  for (const auto& [block, v] : wall[slow]) logs.push_back(std::log(v / wall[fast].at(block)));
  ASSERT_EQ(logs.size(), 6u);
  std::sort(logs.begin(), logs.end());
  const double ratio = std::exp((logs[2] + logs[3]) / 2), lo = std::exp(logs[0]), hi = std::exp(logs[5]);
  EXPECT_GT(ratio, 1.5) << "sleep 0.05 takes about 2.5 times sleep 0.02";
  const std::string line =
      fmt::format("`sleep 0.05` is {:.2f} × slower than `sleep 0.02` (95%: {:.2f}–{:.2f}, 6 pairs)", ratio, lo, hi);
  EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  EXPECT_NE(r.out.find("`sleep 0.02` is fastest"), std::string::npos) << r.out;

  const std::string md = Slurp(dir_ + "/r.md");
  EXPECT_NE(md.find("| Benchmark | Metric | n | Median | MAD | Min | Max | Relative |"), std::string::npos) << md;
  EXPECT_NE(md.find(fmt::format("| {:.2f} ({:.2f}–{:.2f}) |", ratio, lo, hi)), std::string::npos) << md;
  EXPECT_NE(md.find("| `sleep 0.02` | wall_ns | 6 |"), std::string::npos) << md;
  const std::string csv = Slurp(dir_ + "/r.csv");
  EXPECT_EQ(csv.rfind("benchmark,metric,unit,n,median,mad,mean,stddev,min,max,failed\n", 0), 0u) << csv;
  EXPECT_NE(csv.find("\"sleep 0.05\",\"wall_ns\",\"ns\",6,"), std::string::npos) << csv;
  auto j = nlohmann::json::parse(Slurp(dir_ + "/r.json"));
  EXPECT_EQ(j["benchmarks"].size(), 2u);
  EXPECT_EQ(j["run"]["options"]["commands"][1]["text"], "sleep 0.05");
}

// hyperfine's --shell=SHELL (and -S): which shell runs the command lines. `[[ ]]` is bash's, not
// /bin/sh's (dash on Debian): the same line fails under the default shell and runs under bash.
TEST_F(CommandsE2E, ShellEqualsPicksTheShell) {
  const std::string line = "[[ -n x ]] && echo in-bash";
  Result sh = Tare({"run", "--shell", "--runs", "1", "-w", "0", "--store", store_, line});
  EXPECT_NE(sh.exit_code, 0) << "dash has no [[: " << sh.out;
  Result bash = Tare({"run", "--shell=bash", "--runs", "2", "-w", "0", "--store", store_, line});
  ASSERT_EQ(bash.exit_code, 0) << bash.err;
  tare::RunData d = LoadLatest();
  ASSERT_EQ(d.samples.size(), 2u);
  EXPECT_NE(d.samples[0].sample.stdout_tail.find("in-bash"), std::string::npos);
  Result s = Tare({"run", "-S", "bash --norc", "--runs", "1", "-w", "0", "--store", store_, line});
  EXPECT_EQ(s.exit_code, 0) << s.err;
  Result none = Tare({"run", "--shell=none", "--store", store_, "echo a | wc -l"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("which only a shell understands"), std::string::npos) << none.err;
  Result missing = Tare({"run", "--shell=no-such-shell", "--store", store_, "true"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("'no-such-shell' was not found on PATH"), std::string::npos) << missing.err;
}

// Issue 26: `--shell bash 'CMD'` (a space, hyperfine's habit) ran `/bin/sh -c 'bash CMD'`. Now a
// shell before the commands is the shell; what could mean either is refused with both spellings.
TEST_F(CommandsE2E, ShellSpaceShellMeansHyperfinesShellOrIsRefused) {
  const std::string line = "[[ -n x ]] && echo in-bash";
  Result bash = Tare({"run", "--runs", "3", "--shell", "bash", "-w", "0", "--store", store_, line});
  ASSERT_EQ(bash.exit_code, 0) << bash.err;
  tare::RunData d = LoadLatest();
  ASSERT_EQ(d.benchmarks.size(), 1u);
  EXPECT_EQ(d.benchmarks[0].uri, "bash::" + line);
  ASSERT_EQ(d.samples.size(), 3u);
  for (const auto& x : d.samples) EXPECT_NE(x.sample.stdout_tail.find("in-bash"), std::string::npos);
  EXPECT_EQ(bash.err.find("/bin/sh -c bash"), std::string::npos) << bash.err;

  Result alone = Tare({"run", "--shell", "bash", "--store", store_});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("tare run --shell=bash 'COMMAND'"), std::string::npos) << alone.err;
  Result either = Tare({"run", "--shell", "echo", "hi", "--store", store_});
  EXPECT_EQ(either.exit_code, 2);
  EXPECT_NE(either.err.find("tare run --shell -- echo hi"), std::string::npos) << either.err;
  // tare's own --shell CMDLINE is unchanged.
  Result own = Tare({"run", "--shell", "-r", "1", "-w", "0", "--store", store_, "echo a | wc -l"});
  EXPECT_EQ(own.exit_code, 0) << own.err;
}

// hyperfine's short forms (-r -p -s -P -L -N), --style, --show-output, and its JSON layout.
TEST_F(CommandsE2E, HyperfinesShortFlagsStyleShowOutputAndJson) {
  const std::string marks = dir_ + "/marks";
  Result r = Tare({"run",
                   "-r",
                   "2",
                   "-w",
                   "0",
                   "-N",
                   "-s",
                   "sh -c 'echo setup >> " + marks + "'",
                   "-p",
                   "sh -c 'echo prepare >> " + marks + "'",
                   "-L",
                   "n",
                   "1,2",
                   "--style",
                   "basic",
                   "--show-output",
                   "--export-json",
                   dir_ + "/h.json",
                   "--export-json-format",
                   "hyperfine",
                   "--store",
                   store_,
                   "echo out-{n}"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(marks), "setup\nprepare\nprepare\nprepare\nprepare\n") << "setup once, prepare per sample";
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "--style basic: no colour";
  EXPECT_NE(r.err.find("stdout:\n    out-1\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stdout:\n    out-2\n"), std::string::npos) << r.err;
  // hyperfine's layout: results[] in the order given, times in seconds, one exit code per time.
  auto j = nlohmann::json::parse(Slurp(dir_ + "/h.json"));
  ASSERT_EQ(j["results"].size(), 2u) << j.dump(2);
  EXPECT_EQ(j["results"][0]["command"], "echo out-1");
  EXPECT_EQ(j["results"][1]["command"], "echo out-2");
  const tare::RunData d = LoadLatest();
  for (const auto& res : j["results"]) {
    ASSERT_EQ(res["times"].size(), 2u) << res.dump();
    EXPECT_EQ(res["exit_codes"], nlohmann::json::array({0, 0}));
    for (const char* k : {"mean", "stddev", "median", "user", "system", "min", "max"}) {
      EXPECT_TRUE(res[k].is_number()) << k;
    }
    EXPECT_LE(res["min"].get<double>(), res["median"].get<double>());
    EXPECT_LT(res["max"].get<double>(), 10.0) << "seconds, not nanoseconds";
  }
  // The times are the stored wall times, in seconds.
  std::vector<double> stored;
  for (const auto& x : d.samples) {
    if (x.benchmark_id == d.benchmarks[0].id) stored.push_back(x.sample.values.at("wall_ns") * 1e-9);
  }
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_DOUBLE_EQ(j["results"][0]["times"][0].get<double>(), stored[0]);

  Result scan =
      Tare({"run", "-r", "1", "-w", "0", "-P", "n", "1", "2", "--style", "none", "--store", store_, "true {n}"});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(scan.out, "") << "--style none prints no table";
  EXPECT_EQ(LoadLatest().benchmarks.size(), 2u);

  Result clash = Tare({"run", "--style", "basic", "--color", "always", "--store", store_, "true"});
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_NE(clash.err.find("contradict"), std::string::npos) << clash.err;
  Result format = Tare({"run", "--export-json-format", "hyperfine", "--store", store_, "true"});
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.err.find("give --export-json FILE too"), std::string::npos) << format.err;
}

// -i is tare's --instrument; hyperfine's -i (--ignore-failure) gets an error that says so and what
// to do instead, never an instrument named 'sleep 0.1'.
TEST_F(CommandsE2E, DashIIsInstrumentAndSaysWhatHyperfinesMeans) {
  Result r = Tare({"run", "-i", "sleep 0.01", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-i is --instrument"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--ignore-failure"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--shell 'COMMAND || true'"), std::string::npos) << r.err;
  Result fine = Tare({"run", "-i", "wall", "-r", "1", "-w", "0", "--store", store_, "true"});
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
}

TEST_F(CommandsE2E, NoShellUnlessAskedAndTheErrorSaysHow) {
  Result r = Tare({"run", "--store", store_, "echo a | wc -l", "true x"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("'echo a | wc -l' has '|', which only a shell understands"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("add --shell"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(store_)) << "nothing measured, nothing stored";

  Result shell = Tare({"run", "--shell", "--runs", "2", "-w", "0", "--store", store_, "echo a | wc -l", "true x"});
  ASSERT_EQ(shell.exit_code, 0) << shell.err;
  tare::RunData d = LoadLatest();
  EXPECT_EQ(Names(d), (std::vector<std::string>{"echo a | wc -l", "true x"}));
  EXPECT_NE(d.samples[0].sample.stdout_tail.find("1"), std::string::npos) << "the pipe ran in a shell";

  Result both = Tare({"run", "-N", "--shell", "--store", store_, "true x", "true y"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("-N (no shell) and --shell contradict"), std::string::npos) << both.err;
  Result twice = Tare({"run", "--store", store_, "--command", "true x", "--command", "true  x", "--command", "true x"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("'true x' is given twice"), std::string::npos) << twice.err;
}

// --command is the repeatable spelling; TARGET [ARGS...] without a space keeps its meaning.
TEST_F(CommandsE2E, RepeatedCommandFlagAndTheClassicFormSideBySide) {
  Result r = Tare({"run", "-n", "2", "-w", "0", "--store", store_, "--command", "true a", "--command", "true b"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Names(LoadLatest()), (std::vector<std::string>{"true a", "true b"}));
  EXPECT_NE(r.out.find("Summary (wall time, samples paired by round)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 pairs; a 95% interval needs at least 6 (--runs)"), std::string::npos) << r.out;

  // hyperfine's habit: options after the command lines. Each word is a whole command line, so a
  // word starting with '-' is tare's wherever it stands.
  Result after = Tare({"run", "true c", "--runs", "3", "true d", "-w", "0", "--store", store_});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  tare::RunData a = LoadLatest();
  EXPECT_EQ(Names(a), (std::vector<std::string>{"true c", "true d"}));
  EXPECT_EQ(a.samples.size(), 6u) << "--runs 3 and -w 0 were tare's";

  Result classic = Tare({"run", "-n", "2", "-w", "0", "--store", store_, "true", "a b"});
  ASSERT_EQ(classic.exit_code, 0) << classic.err;
  tare::RunData d = LoadLatest();
  ASSERT_EQ(d.benchmarks.size(), 1u) << "one program with the argument 'a b'";
  EXPECT_EQ(classic.out.find("Summary"), std::string::npos);
}

TEST_F(CommandsE2E, PrepareBeforeEverySampleSetupAndConcludeOnce) {
  // Without a shell, a redirection is written inside sh -c's quoted argument.
  Result r = Tare({"run", "--runs", "3", "--warmup", "1", "--store", store_, "--setup",
                   "mkdir once",  // a second mkdir would fail: it ran once
                   "--prepare", "sh -c 'echo p >> prepared.log'", "--conclude", "rmdir once", "true 1", "true 2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 2 commands x (1 warm-up + 3 samples): one --prepare each.
  EXPECT_EQ(Slurp(dir_ + "/prepared.log"), "p\np\np\np\np\np\np\np\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/once")) << "--conclude ran after the last sample";
  tare::RunData d = LoadLatest();
  EXPECT_EQ(d.samples.size(), 8u);
  for (const auto& s : d.samples) EXPECT_TRUE(s.sample.ok());

  Result failed = Tare(
      {"run", "--runs", "2", "--store", dir_ + "/other.db", "--prepare", "sh -c 'echo no disk >&2; exit 4'", "true 1"});
  EXPECT_NE(failed.exit_code, 0);
  EXPECT_NE(failed.err.find("--prepare 'sh -c 'echo no disk >&2; exit 4'' failed (exit status 4)"), std::string::npos)
      << failed.err;
  EXPECT_NE(failed.err.find("no disk"), std::string::npos) << "its stderr is shown: " << failed.err;

  Result setup = Tare({"run", "--store", dir_ + "/third.db", "--setup", "false", "true 1"});
  EXPECT_NE(setup.exit_code, 0);
  EXPECT_NE(setup.err.find("--setup 'false' failed"), std::string::npos) << setup.err;
  if (std::filesystem::exists(dir_ + "/third.db")) {
    auto store = tare::store::Store::Open(dir_ + "/third.db");
    ASSERT_TRUE(store.ok()) << store.status().message();
    EXPECT_FALSE((*store)->ResolveRun("latest").ok()) << "a failed set-up records no run";
  }
}

TEST_F(CommandsE2E, ParameterScanAndListNameEachBenchmarkAfterItsValue) {
  Result scan =
      Tare({"run", "--runs", "2", "-w", "0", "--store", store_, "--parameter-scan", "n", "1", "3", "sleep 0.0{n}"});
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(Names(LoadLatest()), (std::vector<std::string>{"sleep 0.01", "sleep 0.02", "sleep 0.03"}));
  EXPECT_NE(scan.out.find("`sleep 0.03` is"), std::string::npos) << scan.out;

  Result step = Tare({"run", "--runs", "1", "-w", "0", "--store", store_, "--parameter-scan", "t", "0", "0.02", "-D",
                      "0.01", "--", "sleep", "{t}"});
  ASSERT_EQ(step.exit_code, 0) << step.err;
  EXPECT_EQ(Names(LoadLatest()), (std::vector<std::string>{"sleep 0", "sleep 0.01", "sleep 0.02"}))
      << "TARGET ARGS after -- take the parameter too";

  Result list =
      Tare({"run", "--runs", "1", "-w", "0", "--store", store_, "--parameter-list", "word", "a,b c", "echo {word}"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(Names(LoadLatest()), (std::vector<std::string>{"echo a", "echo b c"}));

  Result missing = Tare({"run", "--store", store_, "--parameter-list", "x", "1,2", "sleep 0.1"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("has no {x}"), std::string::npos) << missing.err;
}

TEST_F(CommandsE2E, ExportsAreCheckedBeforeMeasuringAndNeverTheStore) {
  Result r = Tare({"run", "--store", store_, "--export-csv", store_, "true 1", "true 2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--export-csv"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(store_));
}

TEST_F(CommandsE2E, ColourOnlyWhenAskedOrOnATerminal) {
  Result piped = Tare({"run", "-n", "1", "-w", "0", "--store", store_, "true 1", "true 2"});
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out.find('\x1b'), std::string::npos) << "stdout is a file: no colour";
  Result always = Tare({"run", "-n", "1", "-w", "0", "--color", "always", "--store", store_, "true 1", "true 2"});
  ASSERT_EQ(always.exit_code, 0) << always.err;
  EXPECT_NE(always.out.find("\x1b[1mtrue 1\x1b[0m"), std::string::npos) << always.out;
  EXPECT_TRUE(std::regex_search(always.out, std::regex("\x1b\\[32m`true [12]`\x1b\\[0m is fastest")))
      << "the fastest is green";
  Result bad = Tare({"run", "--color", "sometimes", "--store", store_, "true 1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--color 'sometimes' is not one of auto, always, never"), std::string::npos) << bad.err;
}

// Every subcommand's --help: one "Usage:" line naming it, and not the top-level "Start here" block.
TEST_F(CommandsE2E, EverySubcommandHelpHasOneUsageLineNamingIt) {
  Result top = Tare({"--help"});
  ASSERT_EQ(top.exit_code, 0);
  const size_t list = top.out.find("Subcommands:\n");
  ASSERT_NE(list, std::string::npos) << top.out;
  std::vector<std::string> subs;
  std::istringstream lines(top.out.substr(list + 13));
  for (std::string l; std::getline(lines, l) && !l.empty();) {
    std::smatch m;
    if (std::regex_match(l, m, std::regex("  ([a-z-]+) .*"))) subs.push_back(m[1]);
  }
  ASSERT_GE(subs.size(), 10u) << top.out;
  for (const auto& sub : subs) {
    Result h = Tare({sub, "--help"});
    EXPECT_EQ(h.exit_code, 0) << sub;
    size_t usages = 0;
    for (size_t at = h.out.find("Usage:"); at != std::string::npos; at = h.out.find("Usage:", at + 1)) ++usages;
    EXPECT_EQ(usages, 1u) << sub << ":\n" << h.out;
    EXPECT_NE(h.out.find("Usage: tare " + sub), std::string::npos) << h.out;
    EXPECT_EQ(h.out.find("Start here:"), std::string::npos) << sub << " prints the top-level block";
  }
  // Options that take one value per occurrence do not show CLI11's "TEXT ..." (which reads as "many").
  Result run = Tare({"run", "--help"});
  std::smatch m;
  for (const char* flag : {"--metrics", "--env"}) {
    ASSERT_TRUE(std::regex_search(run.out, m, std::regex(std::string("\n  ") + flag + " ([^ ]*( \\.\\.\\.)?)")))
        << flag;
    EXPECT_EQ(m[2].str(), "") << flag << " shows '" << m[1] << "'";
  }
}

// Issue 48, item 1: the programs tare measures (and its --prepare commands) never inherit tare's
// own secrets, $TARE_STORE and $PGPASSWORD, unless --env passes one on purpose; and a password on
// tare's command line is masked in tare's own argv, which any user of the host can read in
// /proc/PID/cmdline while the run lasts.
TEST_F(CommandsE2E, ChildrenInheritNoStoreSecretsAndTaresArgvHidesThePassword) {
  setenv("TARE_STORE", store_.c_str(), 1);
  setenv("PGPASSWORD", "hunter2", 1);
  // `hunte[r]2` matches the password but not itself, so the grep and sh processes do not count.
  const std::string store_with_secret = dir_ + "/password=hunter2.db";
  Result r = Tare({"run", "--runs", "2", "--store", store_with_secret, "--prepare", "sh -c 'env > prepare.env'",
                   "sh -c 'env > target.env; grep -l hunte[r]2 /proc/[0-9]*/cmdline > seen.txt; true'"});
  Result given = Tare({"run", "--runs", "2", "--store", dir_ + "/given.db", "--env", "PGPASSWORD=on-purpose",
                       "sh -c 'env > given.env'"});
  unsetenv("TARE_STORE");
  unsetenv("PGPASSWORD");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(given.exit_code, 0) << given.err;
  for (const char* file : {"/prepare.env", "/target.env"}) {
    const std::string env = Slurp(dir_ + file);
    ASSERT_NE(env.find("PATH="), std::string::npos) << file << ": the rest of the environment is inherited";
    EXPECT_EQ(env.find("TARE_STORE="), std::string::npos) << file << ":\n" << env;
    EXPECT_EQ(env.find("PGPASSWORD="), std::string::npos) << file << ":\n" << env;
  }
  EXPECT_EQ(Slurp(dir_ + "/seen.txt"), "") << "a process's argv still shows the password";
  EXPECT_NE(Slurp(dir_ + "/given.env").find("PGPASSWORD=on-purpose\n"), std::string::npos)
      << "--env passes one on purpose";
  EXPECT_TRUE(std::filesystem::exists(store_with_secret)) << "tare itself still reads its own argv";
}

// Issue 48, item 8: `tare site -o DIR` into a directory that already holds a site. A page there that
// is a symbolic link is replaced by the page, never written through (the link pointed at a file of
// the user's); a page of a benchmark the newest runs no longer measure is removed, not published
// stale; a b/ that is a link is refused.
TEST_F(CommandsE2E, SiteIntoAnExistingDirectoryReplacesLinksAndRemovesStalePages) {
  namespace fs = std::filesystem;
  ASSERT_EQ(Tare({"run", "-q", "--runs", "2", "--store", store_, "echo kept"}).exit_code, 0);
  ASSERT_EQ(Tare({"site", "-o", "site", "--store", store_}).exit_code, 0);
  std::vector<std::string> pages;
  for (const auto& e : fs::directory_iterator(dir_ + "/site/b")) pages.push_back(e.path().string());
  ASSERT_EQ(pages.size(), 1u);
  const std::string victim = dir_ + "/victim.txt";
  std::ofstream(victim) << "precious\n";
  fs::remove(pages[0]);
  fs::create_symlink(victim, pages[0]);
  std::ofstream(dir_ + "/site/b/stale.html") << "<p>a benchmark long gone</p>";
  fs::create_symlink(victim, dir_ + "/site/b/gone.html");
  Result r = Tare({"site", "-o", "site", "--store", store_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(victim), "precious\n") << "written through a link";
  EXPECT_FALSE(fs::is_symlink(pages[0]));
  EXPECT_NE(Slurp(pages[0]).find("<html"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ + "/site/b/stale.html")) << "a stale page is still published";
  EXPECT_FALSE(fs::is_symlink(dir_ + "/site/b/gone.html"));
  EXPECT_TRUE(fs::exists(victim)) << "a link is removed, not what it points at";

  fs::remove_all(dir_ + "/site/b");
  fs::create_directories(dir_ + "/elsewhere");
  fs::create_directory_symlink(dir_ + "/elsewhere", dir_ + "/site/b");
  Result linked = Tare({"site", "-o", "site", "--store", store_});
  EXPECT_EQ(linked.exit_code, 2) << linked.err;
  EXPECT_NE(linked.err.find("symbolic link"), std::string::npos) << linked.err;
  EXPECT_TRUE(fs::is_empty(dir_ + "/elsewhere"));
}

}  // namespace
