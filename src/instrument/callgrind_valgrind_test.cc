// The callgrind reader against real valgrind 3.19 output: callgrind_demo (testdata/) profiled
// under the options the sim instrument uses, compared with callgrind_annotate.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "base/files.h"
#include "instrument/callgrind_profile.h"
#include "instrument/internal/callgrind_test_util.h"
#include "proc/spawner.h"

namespace tare::instrument {
namespace {

using callgrind_test::CallsInto;
using callgrind_test::FindEdge;
using callgrind_test::Ir;

// Runs real valgrind (through tare's own spawner) with the given arguments.
class CallgrindRun : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spawner = proc::Spawner::Start();
    ASSERT_TRUE(spawner.ok()) << spawner.status().message();
    spawner_ = std::move(*spawner);
    auto valgrind = ResolveExecutable("valgrind");
    ASSERT_TRUE(valgrind.ok()) << "valgrind is a test dependency (scripts/deps.sh): " << valgrind.status().message();
    valgrind_ = *valgrind;
    auto dir = MakeTempDir("tare-callgrind-test");
    ASSERT_TRUE(dir.ok()) << dir.status().message();
    dir_ = *dir;
  }
  void TearDown() override { RemoveTree(dir_); }

  // valgrind --tool=callgrind <options> callgrind_demo <demo_args>; returns the out-file base.
  std::string RunDemo(const std::string& name, std::vector<std::string> options,
                      std::vector<std::string> demo_args = {}) {
    std::string out = dir_ + "/" + name;
    std::vector<std::string> argv = {valgrind_, "--tool=callgrind", "--callgrind-out-file=" + out};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(CALLGRIND_DEMO_PATH);
    argv.insert(argv.end(), demo_args.begin(), demo_args.end());
    Run(argv, dir_ + "/" + name + ".stderr");
    return out;
  }

  void Run(const std::vector<std::string>& argv, const std::string& stderr_path, const std::string& stdout_path = "") {
    proc::SpawnRequest req;
    req.argv = argv;
    req.env = {"PATH=/usr/bin:/bin"};
    req.stderr_path = stderr_path;
    req.stdout_path = stdout_path;
    req.timeout_ns = 120'000'000'000;
    auto r = spawner_->Run(req);
    ASSERT_TRUE(r.ok()) << r.status().message();
    ASSERT_TRUE(r->ok()) << r->Describe() << "\n" << ReadTail(stderr_path, 4000);
  }

  std::vector<Profile> Read(const std::string& path) {
    auto parts = ReadCallgrindProfile(path);
    EXPECT_TRUE(parts.ok()) << parts.status().message();
    return parts.ok() ? *parts : std::vector<Profile>{};
  }

  std::unique_ptr<proc::Spawner> spawner_;
  std::string valgrind_;
  std::string dir_;
};

const std::vector<std::string> kWindowOptions = {"--instr-atstart=no", "--cache-sim=yes",    "--I1=32768,8,64",
                                                 "--D1=32768,8,64",    "--LL=8388608,16,64", "--collect-systime=nsec",
                                                 "--dump-instr=no"};

// ---- real valgrind output ----------------------------------------------------------------------

// Client-request dumps each go to "<out>.<N>", the exit dump to "<out>" itself, and each part
// names its trigger; this is what the sim instrument relies on.
TEST_F(CallgrindRun, EachDumpIsItsOwnFileNamedByItsTrigger) {
  std::string out = RunDemo("cg.out", kWindowOptions);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {out + ".1", "Client Request: demo::compute"},
      {out + ".2", "Client Request: demo::syscalls"},
      {out + ".3", "Client Request: demo::nothing"},
      {out + ".4", "Client Request: demo::iterations"},
      {out, "Program termination"},
  };
  for (size_t i = 0; i < expected.size(); ++i) {
    auto parts = Read(expected[i].first);
    ASSERT_EQ(parts.size(), 1u) << expected[i].first;
    EXPECT_EQ(parts[0].trigger, expected[i].second);
    EXPECT_EQ(parts[0].part, static_cast<int64_t>(i + 1));
    EXPECT_EQ(parts[0].creator, "callgrind-3.19.0");
    EXPECT_GT(parts[0].pid, 0);
    EXPECT_EQ(parts[0].positions, std::vector<std::string>{"line"});
    EXPECT_EQ(parts[0].events, (std::vector<std::string>{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr",
                                                         "DLmw", "sysCount", "sysTime", "sysCpuTime"}));
    EXPECT_EQ(parts[0].event_long_names.at("sysTime"), "sysTime (elapsed ns)");
    ASSERT_TRUE(parts[0].declared_totals.has_value());
    EXPECT_EQ(*parts[0].declared_totals, parts[0].totals);
  }
  EXPECT_FALSE(std::filesystem::exists(out + ".5"));
  // The cache model was applied as asked, whatever the host's caches are.
  auto compute = Read(out + ".1");
  std::map<std::string, std::string> desc(compute[0].desc.begin(), compute[0].desc.end());
  EXPECT_EQ(desc["I1 cache"], "32768 B, 64 B, 8-way associative");
  EXPECT_EQ(desc["LL cache"], "8388608 B, 64 B, 16-way associative");
}

TEST_F(CallgrindRun, ComputeWindowHasTheProgramsCallStructure) {
  std::string out = RunDemo("cg.out", kWindowOptions);
  auto parts = Read(out + ".1");
  ASSERT_EQ(parts.size(), 1u);
  const Profile& p = parts[0];

  // loop(1000) calls leaf() 1000 times; fib(12) makes 465 calls (2 * fib(13) - 1), one from
  // main and 464 recursive ones, which callgrind files under "fib'2".
  const CallEdge* main_loop = FindEdge(p, "main", "loop");
  ASSERT_NE(main_loop, nullptr);
  EXPECT_EQ(main_loop->calls, 1u);
  const CallEdge* loop_leaf = FindEdge(p, "loop", "leaf");
  ASSERT_NE(loop_leaf, nullptr);
  EXPECT_EQ(loop_leaf->calls, 1000u);
  ASSERT_NE(p.FindFunction("leaf"), nullptr);
  EXPECT_EQ(p.FindFunction("leaf")->calls, 1000u);
  EXPECT_EQ(CallsInto(p, "fib"), 465u);
  const CallEdge* main_fib = FindEdge(p, "main", "fib");
  ASSERT_NE(main_fib, nullptr);
  EXPECT_EQ(main_fib->calls, 1u);

  // Inclusive costs agree with the calls that reach them: main is the root of the window, so
  // its inclusive cost is the whole window; loop's and fib's are what main's calls to them cost.
  EXPECT_EQ(p.InclusiveOf("main"), p.totals);
  EXPECT_EQ(p.InclusiveOf("fib"), main_fib->inclusive);
  EXPECT_EQ(p.FindFunction("loop")->inclusive, main_loop->inclusive);
  EXPECT_EQ(p.FindFunction("leaf")->inclusive, loop_leaf->inclusive);
  // Every instruction of the window belongs to exactly one function.
  CostVector sum(p.events.size(), 0);
  for (const auto& f : p.functions) {
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += f.self[i];
  }
  EXPECT_EQ(sum, p.totals);

  // leaf() inlines demo_mix() from a header: callgrind reports those lines under the header's
  // name (fi=/fe=), and they are still leaf's own cost.
  std::set<std::string> leaf_files;
  for (const auto& l : p.FindFunction("leaf")->lines) {
    leaf_files.insert(std::filesystem::path(l.file).filename().string());
    EXPECT_GT(l.line, 0u);
  }
  EXPECT_TRUE(leaf_files.count("callgrind_demo_mix.h")) << "no inlined lines";
  EXPECT_TRUE(leaf_files.count("callgrind_demo.c"));
  EXPECT_EQ(p.FindFunction("leaf")->object, CALLGRIND_DEMO_PATH);
}

// callgrind_annotate (valgrind's own Perl reader) agrees with this parser on every function's
// self cost. It lists one row per (file, function), splitting inlined lines off into rows of
// their own, so rows are summed by function name before comparing.
TEST_F(CallgrindRun, SelfCostsAgreeWithCallgrindAnnotate) {
  std::string out = RunDemo("cg.out", kWindowOptions);
  auto parts = Read(out + ".1");
  ASSERT_EQ(parts.size(), 1u);
  auto annotate = ResolveExecutable("callgrind_annotate");
  ASSERT_TRUE(annotate.ok()) << annotate.status().message();
  std::string report = dir_ + "/annotate.txt";
  Run({"/usr/bin/perl", *annotate, "--threshold=100", "--show=Ir", "--auto=no", out + ".1"}, dir_ + "/annotate.stderr",
      report);
  auto text = ReadFile(report);
  ASSERT_TRUE(text.ok());
  std::map<std::string, uint64_t> theirs;
  std::regex row(R"(^\s*([0-9,]+) \([ 0-9.]+%\)\s+([^:]*):(.*?)( \[.*\])?$)");
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row) || m[2] == "PROGRAM TOTALS") continue;
    std::string digits = m[1];
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    theirs[m[3]] += std::stoull(digits);
  }
  std::map<std::string, uint64_t> ours;
  for (const auto& f : parts[0].functions) {
    if (Ir(f.self) > 0) ours[f.name] += Ir(f.self);
  }
  EXPECT_EQ(ours, theirs) << *text;
  EXPECT_GE(ours.size(), 5u);  // main, loop, leaf, fib, fib'2
}

TEST_F(CallgrindRun, SyscallEventsAndAnEmptyWindow) {
  std::string out = RunDemo("cg.out", kWindowOptions);
  auto sys = Read(out + ".2");
  ASSERT_EQ(sys.size(), 1u);
  EXPECT_EQ(sys[0].Total("sysCount"), 20u);  // 20 write()s
  EXPECT_GT(sys[0].Total("sysTime"), 0u);
  auto nothing = Read(out + ".3");
  ASSERT_EQ(nothing.size(), 1u);
  EXPECT_EQ(nothing[0].totals, CostVector(12, 0));
  EXPECT_TRUE(nothing[0].functions.empty());
}

// --combine-dumps=yes appends every dump to one file as consecutive parts; compressed names
// defined in one part are used by the next. Counts equal those of separate files.
TEST_F(CallgrindRun, CombinedDumpsAreConsecutivePartsOfOneFile) {
  std::string separate = RunDemo("sep.out", kWindowOptions);
  std::vector<std::string> options = kWindowOptions;
  options.push_back("--combine-dumps=yes");
  std::string combined = RunDemo("comb.out", options);
  auto parts = Read(combined);
  ASSERT_EQ(parts.size(), 5u);
  EXPECT_FALSE(std::filesystem::exists(combined + ".1"));
  EXPECT_EQ(parts[0].trigger, "Client Request: demo::compute");
  EXPECT_EQ(parts[3].trigger, "Client Request: demo::iterations");
  EXPECT_EQ(parts[4].trigger, "Program termination");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(parts[i].part, i + 1);
  auto alone = Read(separate + ".4");
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(Ir(parts[3].totals), Ir(alone[0].totals));
  EXPECT_EQ(parts[3].FindFunction("leaf")->calls, 100u);
  EXPECT_GT(Ir(parts[0].totals), 10000u);
}

// With --dump-instr=yes positions are "instr line", instruction addresses are hex and mostly
// relative (+N, -N, *); the per-function costs are the same as with line positions only.
TEST_F(CallgrindRun, InstructionPositionsParseToTheSameCosts) {
  std::string by_line = RunDemo("line.out", kWindowOptions);
  std::vector<std::string> options = kWindowOptions;
  options.back() = "--dump-instr=yes";
  std::string by_instr = RunDemo("instr.out", options);
  auto a = Read(by_line + ".1");
  auto b = Read(by_instr + ".1");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].positions, (std::vector<std::string>{"instr", "line"}));
  EXPECT_EQ(a[0].totals, b[0].totals);
  for (const auto& f : a[0].functions) {
    const FunctionCost* g = b[0].FindFunction(f.name);
    ASSERT_NE(g, nullptr) << f.name;
    EXPECT_EQ(f.self, g->self) << f.name;
    EXPECT_EQ(f.inclusive, g->inclusive) << f.name;
  }
  // Every instruction row has a real address inside the executable.
  for (const auto& l : b[0].FindFunction("leaf")->lines) EXPECT_GT(l.instr, 0x1000u);
}

// Whole-process measurement (instrumentation from the start, no client requests): the exit dump
// holds everything, calls into libc carry cob=, and summary: is consistent with the totals.
TEST_F(CallgrindRun, WholeProcessProfile) {
  std::string out = RunDemo("whole.out", {"--dump-instr=no"}, {"whole", "50"});
  EXPECT_FALSE(std::filesystem::exists(out + ".1"));
  auto parts = Read(out);
  ASSERT_EQ(parts.size(), 1u);
  const Profile& p = parts[0];
  EXPECT_EQ(p.trigger, "Program termination");
  EXPECT_TRUE(p.summary_consistent);
  EXPECT_NE(p.cmd.find("whole 50"), std::string::npos) << p.cmd;
  EXPECT_EQ(p.FindFunction("leaf")->calls, 1050u);
  EXPECT_GT(Ir(p.totals), 50000u);  // the dynamic loader and libc start-up are in it
  std::set<std::string> objects;
  for (const auto& f : p.functions) objects.insert(std::filesystem::path(f.object).filename());
  EXPECT_TRUE(objects.count("libc.so.6"));
  bool calls_into_libc = false;
  for (const auto& e : p.calls) {
    if (p.functions[e.caller].object == CALLGRIND_DEMO_PATH &&
        p.functions[e.callee].object.find("libc.so") != std::string::npos) {
      calls_into_libc = true;
    }
  }
  EXPECT_TRUE(calls_into_libc);
}

}  // namespace
}  // namespace tare::instrument
