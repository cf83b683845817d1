#include "instrument/sim.h"

#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>

#include "base/files.h"
#include "proc/spawner.h"

namespace tare::instrument {
namespace {

using ::testing::TempDir;

// Events whose values are real elapsed times, not simulated counts: they differ between runs.
bool IsTimeEvent(const std::string& event) { return event == "sysTime" || event == "sysCpuTime"; }

std::map<std::string, uint64_t> CountEvents(const std::map<std::string, uint64_t>& totals) {
  std::map<std::string, uint64_t> out;
  for (const auto& [k, v] : totals) {
    if (!IsTimeEvent(k)) out[k] = v;
  }
  return out;
}

bool HasWarning(const SimReading& r, SimWarning::Kind kind) {
  for (const auto& w : r.warnings) {
    if (w.kind == kind) return true;
  }
  return false;
}

const SimReading* Find(const SimReadings& rs, const std::string& name) {
  for (const auto& r : rs.benchmarks) {
    if (r.benchmark == name) return &r;
  }
  return nullptr;
}

// ---- pure pieces -------------------------------------------------------------------------------

TEST(SimValgrind, FoundOnThePath) {
  auto v = FindValgrind();
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(std::filesystem::path(*v).filename(), "valgrind");
  EXPECT_TRUE(std::filesystem::path(*v).is_absolute());
}

TEST(SimValgrind, MissingNamesTheDebianPackage) {
  auto v = FindValgrind("/nonexistent-dir:/also/not/here");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(v.status().message(), "valgrind is not installed; install the Debian package: apt-get install valgrind");
}

// The exact argv the runner spawns for a tare benchmark binary.
TEST(SimCommandLine, TareBinary) {
  SimOptions o;
  o.valgrind = "/usr/bin/valgrind";
  o.profile_dir = "/tmp/s1";
  EXPECT_EQ(
      SimCommand(o, {"./bench", "--x"}),
      (std::vector<std::string>{"/usr/bin/valgrind", "--tool=callgrind", "--cache-sim=yes", "--I1=32768,8,64",
                                "--D1=32768,8,64", "--LL=8388608,16,64", "--collect-systime=nsec",
                                "--callgrind-out-file=/tmp/s1/callgrind.out.%p", "--log-file=/tmp/s1/valgrind.%p.log",
                                "--dump-instr=no", "--trace-children=no", "--instr-atstart=no", "./bench", "--x"}));
  EXPECT_TRUE(o.disable_aslr);  // the runner sets SpawnRequest::disable_aslr from this
}

TEST(SimCommandLine, CommandAndGoogleBenchmark) {
  SimOptions o;
  o.profile_dir = "/p";
  o.target = SimTarget::kCommand;
  auto cmd = SimValgrindOptions(o);
  EXPECT_EQ(cmd.back(), "--instr-atstart=yes");
  o.target = SimTarget::kGoogleBenchmark;
  auto gb = SimValgrindOptions(o);
  std::vector<std::string> tail(gb.end() - 5, gb.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"--instr-atstart=yes", "--dump-after=benchmark::State::StartKeepRunning()",
                                            "--dump-before=benchmark::State::FinishKeepRunning()",
                                            "--dump-before=benchmark::State::PauseTiming()",
                                            "--dump-after=benchmark::State::ResumeTiming()"}));
  o.gbench_exclude_paused = false;
  EXPECT_EQ(SimValgrindOptions(o).size(), gb.size() - 2);
}

TEST(SimCommandLine, Environment) {
  SimOptions o;
  std::vector<std::string> env = {"PATH=/bin", "VALGRIND_OPTS=--tool=memcheck", "LD_BIND_NOW="};
  EXPECT_EQ(SimEnvironment(o, env), (std::vector<std::string>{"PATH=/bin", "LD_BIND_NOW=1"}));
  o.target = SimTarget::kCommand;  // a command's lazy binding is part of its real cost
  EXPECT_EQ(SimEnvironment(o, env), (std::vector<std::string>{"PATH=/bin"}));
  struct utsname u;
  ASSERT_EQ(uname(&u), 0);
  EXPECT_EQ(SetarchPrefix(), (std::vector<std::string>{"setarch", u.machine, "-R"}));
}

TEST(SimCommandLine, GoogleBenchmarkFlags) {
  GbenchFlagSupport v171{true, false};
  EXPECT_EQ(GoogleBenchmarkSimFlags(v171),
            (std::vector<std::string>{"--benchmark_repetitions=1", "--benchmark_min_time=0",
                                      "--benchmark_min_warmup_time=0.000000001"}));
  GbenchFlagSupport v18{true, true};
  EXPECT_EQ(GoogleBenchmarkSimFlags(v18, 500)[1], "--benchmark_min_time=500x");
  EXPECT_EQ(GoogleBenchmarkSimFlags(GbenchFlagSupport{}),
            (std::vector<std::string>{"--benchmark_repetitions=1", "--benchmark_min_time=0"}));
  auto s = DetectGbenchFlagSupport(
      "benchmark [--benchmark_list_tests={true|false}]\n"
      "          [--benchmark_min_time=`<integer>x` OR `<float>s` ]\n"
      "          [--benchmark_min_warmup_time=<min_warmup_time>]\n");
  EXPECT_TRUE(s.min_warmup_time);
  EXPECT_TRUE(s.iteration_suffix);
}

TEST(SimProfiles, FilesAreOrderedByProcessThenDump) {
  std::string dir = TempDir() + "sim_files_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  for (const char* name : {"callgrind.out.12.10", "callgrind.out.12", "callgrind.out.12.2", "callgrind.out.7.1",
                           "callgrind.out.7", "valgrind.12.log", "callgrind.out.x", "other"}) {
    std::ofstream(dir + "/" + name) << "x";
  }
  auto files = SimProfileFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().message();
  std::vector<std::string> names;
  for (const auto& f : *files) names.push_back(std::filesystem::path(f).filename());
  EXPECT_EQ(names, (std::vector<std::string>{"callgrind.out.7.1", "callgrind.out.7", "callgrind.out.12.2",
                                             "callgrind.out.12.10", "callgrind.out.12"}));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto none = SimProfileFiles(dir);
  EXPECT_EQ(none.status().code(), StatusCode::kNotFound);
  std::filesystem::remove_all(dir);
}

// The benchmark can create files in its profile directory, so file names are input. Numbers past
// 64 bits (a 23-digit "pid" once aborted tare through std::stoull's out_of_range) are skipped.
TEST(SimProfiles, HugeNumbersInFileNamesAreSkipped) {
  std::string dir = TempDir() + "sim_huge_names_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* name : {"callgrind.out.12345678901234567890123", "callgrind.out.7.1",
                           "callgrind.out.7.99999999999999999999999", "callgrind.out.7"}) {
    std::ofstream(dir + "/" + name) << "x";
  }
  auto files = SimProfileFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().message();
  std::vector<std::string> names;
  for (const auto& f : *files) names.push_back(std::filesystem::path(f).filename());
  EXPECT_EQ(names, (std::vector<std::string>{"callgrind.out.7.1", "callgrind.out.7"}));
  std::filesystem::remove_all(dir);
}

// A symlink loop made the throwing directory_entry::is_regular_file() throw (ELOOP).
TEST(SimProfiles, SymlinkLoopIsSkipped) {
  std::string dir = TempDir() + "sim_symlink_loop_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/callgrind.out.7") << "x";
  std::filesystem::create_symlink("callgrind.out.8", dir + "/callgrind.out.8");
  auto files = SimProfileFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(std::filesystem::path(files->front()).filename(), "callgrind.out.7");
  std::filesystem::remove_all(dir);
}

// iai-v1 on hand-picked counts: RAM = 2+4+1 = 7, LL = (10+20+5) - 7 = 28,
// L1 = (1000+300+200) - 28 - 7 = 1465, cycles = 1465 + 5*28 + 35*7 = 1850.
TEST(SimCycleModel, IaiV1) {
  std::map<std::string, uint64_t> t = {{"Ir", 1000}, {"Dr", 300}, {"Dw", 200}, {"I1mr", 10}, {"D1mr", 20},
                                       {"D1mw", 5},  {"ILmr", 2}, {"DLmr", 4}, {"DLmw", 1}};
  auto c = EstimateCyclesIaiV1(t);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->ram_hits, 7);
  EXPECT_EQ(c->ll_hits, 28);
  EXPECT_EQ(c->l1_hits, 1465);
  EXPECT_EQ(c->cycles, 1850);
  t.erase("DLmw");
  EXPECT_FALSE(EstimateCyclesIaiV1(t).has_value());

  SimReading r;
  r.window_totals = {{"Ir", 1000}, {"Dr", 300}, {"Dw", 200}, {"I1mr", 10}, {"D1mr", 20},
                     {"D1mw", 5},  {"ILmr", 2}, {"DLmr", 4}, {"DLmw", 1},  {"sysCount", 3}};
  r.iterations = 10;
  ComputeSimMetrics(&r);
  EXPECT_EQ(r.values["sim.est_cycles"], 185);
  EXPECT_EQ(r.values["sim.Ir"], 100);
  EXPECT_EQ(r.values["sim.syscalls"], 0.3);
  EXPECT_EQ(r.cycle_model, "iai-v1");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SimWarnings, ThresholdsAndMessages) {
  SimReading r;
  r.benchmark = "b/1";
  r.iterations = 100;
  r.window_totals = {{"Ir", 999}};  // 9.99 per iteration
  ComputeSimMetrics(&r);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].kind, SimWarning::Kind::kMeasuredNoWork);
  EXPECT_EQ(r.warnings[0].message,
            "b/1: measured no work (9.990 instructions per iteration): likely optimised away; use "
            "tare::do_not_optimize (benchmark::DoNotOptimize in Google Benchmark code) on the "
            "result");
  r.window_totals = {{"Ir", 1000}};
  ComputeSimMetrics(&r);
  EXPECT_TRUE(r.warnings.empty());

  // 3000 instructions ~ 1000 ns at 3 GHz; 112 ns of syscalls is 10.07% of the total.
  r.window_totals = {{"Ir", 3000}, {"sysCount", 10}, {"sysTime", 112}};
  r.iterations = 0;
  ComputeSimMetrics(&r);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].kind, SimWarning::Kind::kSyscallHeavy);
  EXPECT_EQ(r.warnings[0].message,
            "b/1: syscall-heavy: 10 system calls took 10% of the estimated time (112 ns against "
            "1000 ns of simulated work at 3 GHz); simulation does not count kernel work; compare "
            "with the wall instrument");
  // Issue 44, item 7: one system call in the whole window (here 90% of the estimate) is incidental.
  r.window_totals = {{"Ir", 3000}, {"sysCount", 1}, {"sysTime", 9000}};
  ComputeSimMetrics(&r);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0].message;
  // Fewer than kSyscallHeavyMinCalls per window, counted over its iterations: 9 calls over 100.
  r.iterations = 100;
  r.window_totals = {{"Ir", 300000}, {"sysCount", 9}, {"sysTime", 900000}};
  ComputeSimMetrics(&r);
  EXPECT_TRUE(r.warnings.empty());
  r.window_totals["sysCount"] = 10;
  ComputeSimMetrics(&r);
  EXPECT_EQ(r.warnings.size(), 1u);
  r.iterations = 0;
  // Totals near 2^64 (a hostile profile can declare any) are printed, not converted to int64_t
  // out of range (undefined behaviour; -fsanitize=float-cast-overflow catches it).
  r.window_totals = {{"Ir", 3000}, {"sysCount", 18446744073709551615ULL}, {"sysTime", 18446744073709551615ULL}};
  ComputeSimMetrics(&r);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].message,
            "b/1: syscall-heavy: 18446744073709551616.000 system calls took 100% of the "
            "estimated time (18446744073709551616.000 ns against 1000 ns of simulated work at 3 "
            "GHz); simulation does not count kernel work; compare with the wall instrument");
  r.window_totals = {{"Ir", 3000}, {"sysCount", 10}, {"sysTime", 112}};
  r.window_totals["sysTime"] = 111;  // 9.99%
  ComputeSimMetrics(&r);
  EXPECT_TRUE(r.warnings.empty());
}

// ---- real valgrind ------------------------------------------------------------------------------

class SimRun : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spawner = proc::Spawner::Start();
    ASSERT_TRUE(spawner.ok()) << spawner.status().message();
    spawner_ = std::move(*spawner);
    auto valgrind = FindValgrind();
    ASSERT_TRUE(valgrind.ok()) << valgrind.status().message();
    valgrind_ = *valgrind;
    auto dir = MakeTempDir("tare-sim-test");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
  }
  void TearDown() override { RemoveTree(dir_); }

  struct Sample {
    std::vector<std::string> profiles;
    std::string stdout_text;
  };

  // One sample as the runner takes it: a fresh profile directory, SimCommand, SimEnvironment,
  // ASLR off through the spawner (or through `prefix`, e.g. SetarchPrefix()).
  Sample Run(SimTarget target, const std::vector<std::string>& target_argv, const std::vector<std::string>& prefix = {},
             bool exclude_paused = true) {
    SimOptions o;
    o.target = target;
    o.valgrind = valgrind_;
    o.profile_dir = dir_ + "/s" + std::to_string(++samples_);
    o.gbench_exclude_paused = exclude_paused;
    std::filesystem::create_directories(o.profile_dir);
    proc::SpawnRequest req;
    req.argv = prefix;
    auto cmd = SimCommand(o, target_argv);
    req.argv.insert(req.argv.end(), cmd.begin(), cmd.end());
    if (!prefix.empty()) {
      auto setarch = ResolveExecutable(req.argv[0]);
      EXPECT_TRUE(setarch.ok());
      if (setarch.ok()) req.argv[0] = *setarch;
    }
    req.env = SimEnvironment(o, {"PATH=/usr/bin:/bin"});
    req.disable_aslr = prefix.empty() && o.disable_aslr;
    req.stdout_path = o.profile_dir + "/stdout";
    req.stderr_path = o.profile_dir + "/stderr";
    req.timeout_ns = 300'000'000'000;
    Sample s;
    auto r = spawner_->Run(req);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return s;
    EXPECT_TRUE(r->ok()) << r->Describe() << "\n" << ReadTail(req.stderr_path, 4000);
    // The program's own stderr is free of valgrind's chatter ("==pid== ...", "--pid-- warning"):
    // that went to the log file.
    std::string err = ReadTail(req.stderr_path, 100000);
    EXPECT_FALSE(std::regex_search(err, std::regex("(^|\n)(==|--)[0-9]+(==|--)"))) << err;
    auto files = SimProfileFiles(o.profile_dir);
    EXPECT_TRUE(files.ok()) << files.status().message();
    if (files.ok()) s.profiles = *files;
    auto out = ReadFile(req.stdout_path);
    if (out.ok()) s.stdout_text = *out;
    return s;
  }

  SimReadings Read(SimTarget target, const Sample& s, int64_t iterations, int threads = 1) {
    auto r = ReadSimResults(target, s.profiles, iterations, threads);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : SimReadings{};
  }

  std::unique_ptr<proc::Spawner> spawner_;
  std::string valgrind_;
  std::string dir_;
  int samples_ = 0;
};

TEST_F(SimRun, TareBinaryWindowsBecomePerIterationMetrics) {
  Sample s = Run(SimTarget::kTareBinary, {CALLGRIND_DEMO_PATH, "100"});
  SimReadings rs = Read(SimTarget::kTareBinary, s, 100);
  ASSERT_EQ(rs.benchmarks.size(), 4u);
  EXPECT_EQ(rs.benchmarks[0].benchmark, "demo::compute");
  EXPECT_EQ(rs.benchmarks[3].benchmark, "demo::iterations");

  const SimReading* it = Find(rs, "demo::iterations");
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(it->iterations, 100);
  EXPECT_EQ(it->windows, 1);
  EXPECT_EQ(it->values.at("sim.Ir"), it->window_totals.at("Ir") / 100.0);
  auto c = EstimateCyclesIaiV1(it->window_totals);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(it->values.at("sim.est_cycles"), c->cycles / 100.0);
  EXPECT_EQ(it->cycle_model, "iai-v1");
  for (const char* m : {"sim.Ir", "sim.Dr", "sim.Dw", "sim.I1mr", "sim.D1mr", "sim.D1mw", "sim.ILmr", "sim.DLmr",
                        "sim.DLmw", "sim.syscalls", "sim.syscall_ns", "sim.syscall_cpu_ns", "sim.est_cycles"}) {
    EXPECT_TRUE(it->values.count(m)) << m;
  }
  EXPECT_TRUE(it->warnings.empty()) << it->warnings[0].message;

  const SimReading* compute = Find(rs, "demo::compute");
  EXPECT_TRUE(compute->warnings.empty());
  EXPECT_GT(compute->window_totals.at("Ir"), 15000u);

  // The empty window: nothing measured, and tare says what to do.
  const SimReading* nothing = Find(rs, "demo::nothing");
  EXPECT_EQ(nothing->window_totals.at("Ir"), 0u);
  EXPECT_TRUE(HasWarning(*nothing, SimWarning::Kind::kMeasuredNoWork));
  EXPECT_NE(nothing->warnings[0].message.find("use tare::do_not_optimize"), std::string::npos);

  // 20 writes of 64 KiB: the kernel's work dwarfs the few hundred simulated instructions.
  const SimReading* sys = Find(rs, "demo::syscalls");
  EXPECT_EQ(sys->window_totals.at("sysCount"), 20u);
  EXPECT_EQ(sys->values.at("sim.syscalls"), 0.2);
  EXPECT_GT(sys->window_totals.at("sysTime"), 0u);
  ASSERT_TRUE(HasWarning(*sys, SimWarning::Kind::kSyscallHeavy));
  EXPECT_NE(sys->warnings.back().message.find("compare with the wall instrument"), std::string::npos);
}

// Determinism is the point: the same binary, rerun, gives identical counts for every event;
// only the two real-time syscall events vary.
TEST_F(SimRun, ThreeRerunsGiveIdenticalCounts) {
  std::vector<SimReadings> runs;
  for (int i = 0; i < 3; ++i) {
    runs.push_back(Read(SimTarget::kTareBinary, Run(SimTarget::kTareBinary, {CALLGRIND_DEMO_PATH}), 100));
  }
  ASSERT_EQ(runs[0].benchmarks.size(), 4u);
  for (size_t b = 0; b < 4; ++b) {
    const auto& first = runs[0].benchmarks[b];
    for (int i = 1; i < 3; ++i) {
      const auto& other = runs[i].benchmarks[b];
      EXPECT_EQ(CountEvents(other.window_totals), CountEvents(first.window_totals)) << first.benchmark << " run " << i;
      EXPECT_EQ(other.values.at("sim.est_cycles"), first.values.at("sim.est_cycles"));
    }
    // Every count event is there (nine cache events and sysCount).
    EXPECT_EQ(CountEvents(first.window_totals).size(), 10u);
    std::cout << "[determinism] " << first.benchmark;
    for (const auto& [k, v] : first.window_totals) {
      std::cout << " " << k << "=" << v;
      if (IsTimeEvent(k)) {
        std::cout << "/" << runs[1].benchmarks[b].window_totals.at(k) << "/"
                  << runs[2].benchmarks[b].window_totals.at(k);
      }
    }
    std::cout << "\n";
  }
}

// ASLR off through the runner's personality flag or through setarch: the same counts.
TEST_F(SimRun, PersonalityFlagAndSetarchAgree) {
  SimReadings by_flag = Read(SimTarget::kTareBinary, Run(SimTarget::kTareBinary, {CALLGRIND_DEMO_PATH}), 100);
  SimReadings by_setarch =
      Read(SimTarget::kTareBinary, Run(SimTarget::kTareBinary, {CALLGRIND_DEMO_PATH}, SetarchPrefix()), 100);
  ASSERT_EQ(by_flag.benchmarks.size(), by_setarch.benchmarks.size());
  for (size_t b = 0; b < by_flag.benchmarks.size(); ++b) {
    EXPECT_EQ(CountEvents(by_flag.benchmarks[b].window_totals), CountEvents(by_setarch.benchmarks[b].window_totals));
  }
}

TEST_F(SimRun, CommandIsMeasuredWholeAndDeterministically) {
  Sample a = Run(SimTarget::kCommand, {CALLGRIND_DEMO_PATH, "whole", "50"});
  Sample b = Run(SimTarget::kCommand, {CALLGRIND_DEMO_PATH, "whole", "50"});
  ASSERT_EQ(a.profiles.size(), 1u);  // no dumps before exit
  SimReadings ra = Read(SimTarget::kCommand, a, 0);
  SimReadings rb = Read(SimTarget::kCommand, b, 0);
  ASSERT_EQ(ra.benchmarks.size(), 1u);
  const SimReading& r = ra.benchmarks[0];
  EXPECT_EQ(r.benchmark, "");
  EXPECT_EQ(r.iterations, 0);
  EXPECT_GT(r.values.at("sim.Ir"), 50000);  // start-up (loader, libc) is part of a process
  EXPECT_GT(r.values.at("sim.syscalls"), 5);
  EXPECT_EQ(CountEvents(r.window_totals), CountEvents(rb.benchmarks[0].window_totals));
  std::cout << "[determinism] whole process Ir=" << r.window_totals.at("Ir") << "\n";
  // The same profile read as a tare binary has no windows: a clear error, not zeros.
  auto as_tare = ReadSimResults(SimTarget::kTareBinary, a.profiles, 1);
  ASSERT_FALSE(as_tare.ok());
  EXPECT_NE(as_tare.status().message().find("never called CALLGRIND_DUMP_STATS_AT"), std::string::npos);
}

// ---- unmodified Google Benchmark binaries -------------------------------------------------------

class SimGbench : public SimRun {
 protected:
  struct GbResult {
    SimReadings readings;
    Status status;
    int64_t iterations = 0;
    int threads = 0;
  };

  GbenchFlagSupport Support() {
    proc::SpawnRequest req;
    req.argv = {GBENCH_DEMO_PATH, "--help"};
    req.env = {"PATH=/usr/bin:/bin"};
    req.stdout_path = dir_ + "/help.txt";
    auto r = spawner_->Run(req);
    EXPECT_TRUE(r.ok());
    return DetectGbenchFlagSupport(ReadFile(req.stdout_path).value());
  }

  GbResult RunGb(const std::string& name, bool exclude_paused = true) {
    std::string json_path = dir_ + "/gb" + std::to_string(samples_ + 1) + ".json";
    std::vector<std::string> argv = {GBENCH_DEMO_PATH, "--benchmark_filter=^" + name + "$",
                                     "--benchmark_out=" + json_path, "--benchmark_out_format=json"};
    for (auto& f : GoogleBenchmarkSimFlags(Support())) argv.push_back(f);
    Sample s = Run(SimTarget::kGoogleBenchmark, argv, {}, exclude_paused);
    GbResult out;
    auto text = ReadFile(json_path);
    EXPECT_TRUE(text.ok());
    if (!text.ok()) return out;
    auto j = nlohmann::json::parse(*text);
    EXPECT_EQ(j["benchmarks"].size(), 1u) << *text;
    out.iterations = j["benchmarks"][0]["iterations"].get<int64_t>();
    out.threads = j["benchmarks"][0]["threads"].get<int>();
    auto r = ReadSimResults(SimTarget::kGoogleBenchmark, s.profiles, out.iterations, out.threads);
    out.status = r.status();
    if (r.ok()) out.readings = *r;
    return out;
  }
};

// libbenchmark 1.7.1 from Debian: --benchmark_min_warmup_time exists, <N>x does not.
TEST_F(SimGbench, DebianGoogleBenchmarkFlags) {
  GbenchFlagSupport s = Support();
  EXPECT_TRUE(s.min_warmup_time);
  EXPECT_FALSE(s.iteration_suffix);
}

// One warm-up run and one timed run of exactly one iteration; the window is the loop alone (the
// vector set-up before it is not counted), and a rerun gives the same counts.
TEST_F(SimGbench, TimedLoopIsMeasuredExactlyAndDeterministically) {
  GbResult a = RunGb("BM_sum");
  ASSERT_TRUE(a.status.ok()) << a.status.message();
  EXPECT_EQ(a.iterations, 1);
  ASSERT_EQ(a.readings.benchmarks.size(), 1u);
  const SimReading& r = a.readings.benchmarks[0];
  EXPECT_EQ(r.windows, 2);
  EXPECT_EQ(r.iterations, 1);
  // 1000 additions: at least one instruction each, and far less than set-up plus loop.
  EXPECT_GT(r.values.at("sim.Ir"), 1000);
  EXPECT_LT(r.values.at("sim.Ir"), 8000);
  EXPECT_TRUE(r.warnings.empty());
  // The timed iteration runs after a warm-up one: its code and data are already cached.
  EXPECT_EQ(r.values.at("sim.ILmr"), 0);
  GbResult b = RunGb("BM_sum");
  ASSERT_TRUE(b.status.ok());
  EXPECT_EQ(CountEvents(b.readings.benchmarks[0].window_totals), CountEvents(r.window_totals));
  std::cout << "[gbench] BM_sum Ir per iteration " << r.values.at("sim.Ir") << "\n";
}

// Work between PauseTiming() and ResumeTiming() (100000 elements) is left out as Google Benchmark
// leaves it out of its timings; without the pause dumps it would be counted.
TEST_F(SimGbench, PausedWorkIsExcluded) {
  GbResult with = RunGb("BM_paused");
  ASSERT_TRUE(with.status.ok()) << with.status.message();
  GbResult without = RunGb("BM_paused", /*exclude_paused=*/false);
  ASSERT_TRUE(without.status.ok()) << without.status.message();
  double ir = with.readings.benchmarks[0].values.at("sim.Ir");
  double ir_all = without.readings.benchmarks[0].values.at("sim.Ir");
  EXPECT_LT(ir, 2000);
  EXPECT_GT(ir_all - ir, 100000);
}

TEST_F(SimGbench, FixedIterationsAreDividedOut) {
  GbResult g = RunGb("BM_fixed/iterations:1000");
  ASSERT_TRUE(g.status.ok()) << g.status.message();
  EXPECT_EQ(g.iterations, 1000);
  const SimReading& r = g.readings.benchmarks[0];
  EXPECT_EQ(r.values.at("sim.Ir"), r.window_totals.at("Ir") / 1000.0);
  // Eight multiply-adds per iteration: more than 16 instructions, fewer than 64.
  EXPECT_GT(r.values.at("sim.Ir"), 16);
  EXPECT_LT(r.values.at("sim.Ir"), 64);
  EXPECT_TRUE(r.warnings.empty());
}

TEST_F(SimGbench, OptimisedAwayBenchmarkWarns) {
  GbResult g = RunGb("BM_nothing");
  ASSERT_TRUE(g.status.ok()) << g.status.message();
  const SimReading& r = g.readings.benchmarks[0];
  EXPECT_LT(r.values.at("sim.Ir"), 10);
  ASSERT_TRUE(HasWarning(r, SimWarning::Kind::kMeasuredNoWork));
  std::cout << "[gbench] BM_nothing Ir per iteration " << r.values.at("sim.Ir") << "\n";
}

TEST_F(SimGbench, CalibratedIterationCountWarns) {
  GbResult g = RunGb("BM_mintime/min_time:0.200");
  ASSERT_TRUE(g.status.ok()) << g.status.message();
  const SimReading& r = g.readings.benchmarks[0];
  EXPECT_GT(r.windows, 2);
  EXPECT_GT(g.iterations, 1);
  EXPECT_TRUE(HasWarning(r, SimWarning::Kind::kIterationsNotFixed));
  // Still exact for the reported run: a handful of instructions per iteration.
  EXPECT_GT(r.values.at("sim.Ir"), 2);
  EXPECT_LT(r.values.at("sim.Ir"), 20);
}

TEST_F(SimGbench, ThreadedBenchmarkIsRefused) {
  GbResult g = RunGb("BM_threads/threads:2");
  EXPECT_EQ(g.threads, 2);
  ASSERT_FALSE(g.status.ok());
  EXPECT_EQ(g.status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(g.status.message().find("tare/gbench_compat.hpp"), std::string::npos);
}

}  // namespace
}  // namespace tare::instrument
