// Issue 44's everyday frictions, through the real tare binary: advice that works when followed,
// other tools' flags named with tare's own (or said to have none), a store path with a typo in
// its directory refused instead of starting a new history, and a hyperfine habit (`pwd 'sleep
// 0.05'`) refused instead of measured as one command.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "run_fixture.h"

namespace {

using tare::e2e::Result;
namespace fs = std::filesystem;

class EverydayE2E : public tare::e2e::RunFixture {
 protected:
  // Whether tare accepts `args` as a command line (TARE_PARSE_ONLY=1: parsed, nothing run).
  bool Parses(const std::vector<std::string>& args, std::string* err) {
    setenv("TARE_PARSE_ONLY", "1", 1);
    Result r = Tare(args);
    unsetenv("TARE_PARSE_ONLY");
    *err = r.err;
    return r.exit_code == 0;
  }
};

// Item 3: the forgotten-`--` error used to suggest `tare ab ... --head /bin/true -c -- data.txt`,
// which fails with "unknown flag '-c'". The command it suggests now parses.
TEST_F(EverydayE2E, AForgottenDashDashIsAnsweredWithACommandThatParses) {
  Result r = Tare({"ab", "--base", "/bin/true", "--head", "/bin/true", "-c", "data.txt", "--store", store_});
  EXPECT_EQ(r.exit_code, 2);
  const std::string suggested = "tare ab --base /bin/true --head /bin/true --store " + store_ + " -- -c data.txt";
  EXPECT_NE(r.err.find(suggested), std::string::npos) << r.err;
  std::string err;
  EXPECT_TRUE(
      Parses({"ab", "--base", "/bin/true", "--head", "/bin/true", "--store", store_, "--", "-c", "data.txt"}, &err))
      << err;
  EXPECT_FALSE(fs::exists(store_));
}

// Item 3: hyperfine's flags that tare does not have are named with tare's own, or said to have
// none; never "did you mean -h?" or a type error about --samples.
TEST_F(EverydayE2E, HyperfinesFlagsAreAnsweredWithTaresOrSaidToHaveNone) {
  struct Case {
    std::vector<std::string> flag;
    std::string said;
  };
  const std::vector<Case> cases = {
      {{"-c", "rm -f x"}, "--conclude"},      {{"--cleanup", "rm -f x"}, "--conclude"},
      {{"-n", "fast"}, "--command-name"},     {{"--command-name", "fast"}, "named by its command line"},
      {{"-u", "millisecond"}, "--time-unit"}, {{"--time-unit", "millisecond"}, "--time-unit"},
      {{"--min-runs", "3"}, "tare ab"},       {{"-m", "3"}, "tare ab"},
      {{"--max-runs", "30"}, "--runs N"},     {{"--ignore-failure"}, "|| true"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"run", "--store", store_};
    args.insert(args.end(), c.flag.begin(), c.flag.end());
    args.push_back("sleep 0.01");
    Result r = Tare(args);
    EXPECT_EQ(r.exit_code, 2) << c.flag[0];
    EXPECT_NE(r.err.find("hyperfine's " + c.flag[0]), std::string::npos) << c.flag[0] << ": " << r.err;
    EXPECT_NE(r.err.find(c.said), std::string::npos) << c.flag[0] << ": " << r.err;
    EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("is not a value this option takes"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(store_));
  // -n with a count is still tare's --samples.
  Result fine = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "true"});
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
}

// Item 3: a Google Benchmark flag before the target is named with tare's own flag and where it
// goes instead (`tare ab` had this hint; `tare run` said only "unknown flag").
TEST_F(EverydayE2E, AGoogleBenchmarkFlagBeforeTheTargetIsAnswered) {
  Result r = Tare({"run", "--store", store_, "--benchmark_filter=BM_Sort", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'--benchmark_filter=BM_Sort' is a Google Benchmark flag"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--filter BM_Sort"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tare run /bin/true --benchmark_filter=BM_Sort"), std::string::npos) << r.err;
  r = Tare({"run", "--store", store_, "--benchmark_min_time=0.05", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--gbench-min-time 0.05s"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(store_));
}

// Item 4: a typo in the store's directory used to create that directory and start a new history
// there. A store is created only in a directory that exists (the default's .tare/ excepted).
TEST_F(EverydayE2E, AStoreInADirectoryThatDoesNotExistIsRefused) {
  Result r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", "missing-dir/x.db", "true"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("the directory 'missing-dir' of the store 'missing-dir/x.db' does not exist"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("mkdir -p missing-dir"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/missing-dir"));
  // In a directory that exists, a new store is created; so is the default .tare/tare.db.
  fs::create_directories(dir_ + "/there");
  r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", "there/x.db", "true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ + "/there/x.db"));
  unsetenv("TARE_STORE");
  r = Tare({"run", "-n", "1", "-w", "0", "-q", "true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ + "/.tare/tare.db"));
}

// Item 1: `hyperfine pwd 'sleep 0.05'` measures two commands; `tare run pwd 'sleep 0.05'` used to
// measure one (pwd, with the argument "sleep 0.05"), exit 0. When every word after the first is
// a command line of its own, tare says so and measures nothing.
TEST_F(EverydayE2E, AWordFollowedByCommandLinesIsRefusedNotMeasuredAsOneCommand) {
  Result r = Tare({"run", "-r", "6", "--store", store_, "pwd", "sleep 0.05"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("tare run --command pwd --command 'sleep 0.05'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tare run -- pwd 'sleep 0.05'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(store_));
  // Both spellings it offers do what they say.
  r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "--command", "pwd", "--command", "sleep 0.05"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(LoadLatest().benchmarks.size(), 2u);
  r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "--", "pwd", "sleep 0.05"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(LoadLatest().benchmarks.size(), 1u);
  // A word after the first that is not a command on its own keeps the classic form.
  r = Tare({"run", "-n", "1", "-w", "0", "-q", "--store", store_, "sh", "-c", "exit 0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Item 2: what a run measured is its executable *and* how it was invoked. `sh -c LOOP` with five
// times the loop count is another measurement, not an A/A one: it used to be "inconclusive", the
// change called the host's drift ("both runs measured the same executable"), however often each
// side was rerun. With the same two runs measured again, the change is judged against what the
// reruns of each side moved, and called.
TEST_F(EverydayE2E, TwoInvocationsOfOneExecutableAreComparedNotTakenForAnAAPair) {
  const std::string loop = "i=0; while [ $i -lt N ]; do i=$((i+1)); done";
  auto run = [&](const std::string& n) {
    std::string script = loop;
    script.replace(script.find('N'), 1, n);
    Result r = Tare({"run", "-n", "6", "-w", "0", "-q", "--no-git", "--store", store_, "--", "/bin/sh", "-c", script});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  };
  run("20000");   // run 1: base
  run("100000");  // run 2: head, five times the work
  Result first = Tare({"compare", "1", "2", "--store", store_});
  EXPECT_EQ(first.err.find("same executable"), std::string::npos) << first.err;
  EXPECT_EQ(first.out.find("same executable"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("nothing stored tells it from the host's drift"), std::string::npos) << first.out;
  run("20000");   // run 3: base again
  run("100000");  // run 4: head again
  Result second = Tare({"compare", "3", "4", "--store", store_});
  EXPECT_EQ(second.exit_code, 1) << second.out << second.err;
  EXPECT_NE(second.out.find("1 regressed"), std::string::npos) << second.out;
  // The reruns of one invocation are not pooled with the other's: each side's spread is small.
  EXPECT_EQ(second.out.find("within the host's drift"), std::string::npos) << second.out;
}

// Item 5: one host, one digest. A variable set for the whole machine that changes how code behaves
// (OPENBLAS_CORETYPE) entered `tare run`'s fingerprint as target.env and neither `tare env`'s nor
// `tare ab`'s, so one machine showed two host digests. Every fingerprint now takes target.env from
// the environment the targets run with (tare's, with --env applied): the three agree, and --env
// MALLOC_ARENA_MAX=2 is still another host type.
TEST_F(EverydayE2E, OneMachineShowsOneHostDigestWhateverTheCommand) {
  setenv("OPENBLAS_CORETYPE", "Haswell", 1);
  auto digest_in = [](const std::string& text, const std::string& field) {
    std::smatch m;
    const std::regex re("\"" + field + "\": \"([0-9a-f]{64})\"");
    return std::regex_search(text, m, re) ? m[1].str() : std::string("(none in: " + text.substr(0, 200) + ")");
  };
  auto file = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  Result env = Tare({"env", "--json"});
  const std::string host = digest_in(env.out, "hard_digest");
  ASSERT_EQ(env.exit_code, 0) << env.err;
  Result run = Tare({"run", "-q", "-n", "2", "-w", "0", "--no-git", "--store", store_, "--json", dir_ + "/run.json",
                     "--", "/bin/true"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(digest_in(file(dir_ + "/run.json"), "fingerprint_digest"), host) << "tare run and tare env";
  Result ab = Tare({"ab", "--base", "/bin/true", "--head", "/bin/true", "-n", "10", "--cap", "10", "-q",
                    "--inconclusive-ok", "--no-git", "--store", store_, "--json", dir_ + "/ab.json"});
  ASSERT_EQ(ab.exit_code, 0) << ab.err;
  EXPECT_EQ(digest_in(file(dir_ + "/ab.json"), "fingerprint_digest"), host) << "tare ab and tare env";
  Result other = Tare({"run", "-q", "-n", "2", "-w", "0", "--no-git", "--store", store_, "--env", "MALLOC_ARENA_MAX=2",
                       "--json", dir_ + "/other.json", "--", "/bin/true"});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(digest_in(file(dir_ + "/other.json"), "fingerprint_digest"), host) << "--env changes the host type";
  unsetenv("OPENBLAS_CORETYPE");
}

// Item 5: one rule for where a relative executable is found, in `tare run` and `tare ab`: where it
// was typed (tare's working directory), else under --cwd (where the target runs). `tare run` used
// to prefer --cwd when both had one and `tare ab` never looked under --cwd.
TEST_F(EverydayE2E, ARelativeExecutableIsFoundWhereTypedElseUnderCwdInRunAndAb) {
  fs::create_directories(dir_ + "/data");
  auto script = [](const std::string& path, const std::string& says) {
    std::ofstream(path) << "#!/bin/sh\necho " << says << " > \"$TARE_E2E_OUT\"\n";
    fs::permissions(path, fs::perms::owner_all);
  };
  script(dir_ + "/prog", "typed");
  script(dir_ + "/data/prog", "cwd");
  script(dir_ + "/data/only", "cwd-only");
  auto said = [&](const std::string& file) {
    std::ifstream in(file);
    std::string word;
    in >> word;
    return word;
  };
  // In both places: the one typed (tare runs with its working directory at dir_).
  Result run = Tare({"run", "-q", "-n", "1", "-w", "0", "--no-git", "--store", store_, "--cwd", dir_ + "/data", "--env",
                     "TARE_E2E_OUT=" + dir_ + "/run.out", "--", "./prog"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(said(dir_ + "/run.out"), "typed");
  // Only under --cwd: found there, by both commands.
  run = Tare({"run", "-q", "-n", "1", "-w", "0", "--no-git", "--store", store_, "--cwd", dir_ + "/data", "--env",
              "TARE_E2E_OUT=" + dir_ + "/run2.out", "--", "./only"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(said(dir_ + "/run2.out"), "cwd-only");
  Result ab = Tare({"ab",
                    "--base",
                    "./only",
                    "--head",
                    "./prog",
                    "--cwd",
                    dir_ + "/data",
                    "-n",
                    "10",
                    "--cap",
                    "10",
                    "-q",
                    "--inconclusive-ok",
                    "--no-git",
                    "--store",
                    store_,
                    "--env",
                    "TARE_E2E_OUT=/dev/null",
                    "--json",
                    dir_ + "/ab.json"});
  ASSERT_NE(ab.exit_code, 2) << ab.err;
  std::ifstream in(dir_ + "/ab.json");
  std::stringstream json;
  json << in.rdbuf();
  EXPECT_NE(json.str().find(dir_ + "/data/only"), std::string::npos) << "base found under --cwd";
  EXPECT_EQ(json.str().find(dir_ + "/data/prog"), std::string::npos) << "head is the one typed";
  EXPECT_NE(json.str().find("\"" + dir_ + "/prog\""), std::string::npos) << json.str().substr(0, 2000);
}

// Item 5 (and issue 45, item 6): `tare run` printed benchmarks as TARGET::NAME (`true::/bin/true`,
// `bench::BM_Hash`) while ab, compare, history and its own Markdown and CSV said NAME, and `tare
// history` refused the name `tare run` had printed. The table prints names as stored; history takes
// either.
TEST_F(EverydayE2E, RunPrintsBenchmarkNamesAsEveryOtherViewAndHistoryTakesThem) {
  for (int i = 0; i < 2; ++i) {
    Result run = Tare({"run", "-n", "2", "-w", "0", "--no-git", "--store", store_, "--", "/bin/true"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out.find("true::"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("\n/bin/true "), std::string::npos) << run.out;
  }
  for (const std::string name : {"/bin/true", "true::/bin/true"}) {
    Result h = Tare({"history", name, "--store", store_});
    EXPECT_EQ(h.exit_code, 0) << name << ": " << h.err;
    EXPECT_NE(h.out.find("2 runs"), std::string::npos) << h.out;
  }
}

// Item 5: Google Benchmark prints real and CPU time side by side, tare ab and compare judge the
// CPU time: tare run shows its median beside the real time's, and history (so the site) follows
// what is judged, not gb.real_time_ns.
TEST_F(EverydayE2E, GoogleBenchmarkCpuTimeIsShownAndHistoryFollowsWhatIsJudged) {
  Result run =
      Tare({"run", "-n", "2", "-w", "0", "--no-git", "--store", store_, "--filter", "BM_StringCopy/64", GBENCH_BASIC});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("  cpu median  metrics\n"), std::string::npos) << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("\nBM_StringCopy/64 [^\n]* [0-9.]+ [mun]?s  gb\\.real_time_ns, "
                                                    "gb\\.cpu_time_ns\n")))
      << run.out;
  Result h = Tare({"history", "BM_StringCopy/64", "--store", store_});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_EQ(h.out.rfind("BM_StringCopy/64 gb.cpu_time_ns on host ", 0), 0u) << h.out;
}

// Item 7: `sleep` spends a sliver of its wall time on a CPU; its task-clock varying is beside the
// point. tare run warns about its wall time instead, and says to gate it with --metric wall_ns.
TEST_F(EverydayE2E, ACommandThatMostlyWaitsIsNotWarnedAboutItsCpuTime) {
  Result run =
      Tare({"run", "-n", "6", "-w", "0", "--no-git", "--store", store_, "--json", dir_ + "/run.json", "sleep 0.02"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(dir_ + "/run.json");
  std::stringstream json;
  json << in.rdbuf();
  if (json.str().find("perf.task_clock_ns") == std::string::npos) {
    GTEST_SKIP() << "this host cannot count perf task-clock: tare judges wall time already";
  }
  EXPECT_NE(run.err.find("note: CPU time (perf.task_clock_ns) of `sleep 0.02` ("), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("it mostly waits"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("perf.task_clock_ns varied"), std::string::npos) << run.err;
}

// Item 8: the README says every subcommand's --help has examples; runs, env and oracle had none.
// Every subcommand tare --help lists, and oracle's modes, show an "Examples:" section.
TEST_F(EverydayE2E, EverySubcommandsHelpHasExamples) {
  Result top = Tare({"--help"});
  ASSERT_EQ(top.exit_code, 0) << top.err;
  const size_t from = top.out.find("Subcommands:\n");
  ASSERT_NE(from, std::string::npos) << top.out;
  std::vector<std::vector<std::string>> helps;
  std::istringstream lines(top.out.substr(from + 13));
  for (std::string line; std::getline(lines, line) && !line.empty();) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    helps.push_back({name, "--help"});
  }
  ASSERT_GE(helps.size(), 20u) << top.out;
  for (const char* mode : {"check", "stability", "counters"}) helps.push_back({"oracle", mode, "--help"});
  for (const auto& args : helps) {
    Result r = Tare(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    EXPECT_NE(r.out.find("Examples:\n"), std::string::npos) << "tare " << args[0] << " --help:\n" << r.out;
  }
}

}  // namespace
