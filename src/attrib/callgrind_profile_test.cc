#include "attrib/callgrind_profile.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "base/files.h"
#include "proc/spawner.h"

namespace tare::attrib {
namespace {

// ---- helpers -----------------------------------------------------------------------------------

std::string StoredProfilePath() { return std::string(ATTRIB_TESTDATA_DIR) + "/demo_compute.callgrind"; }

uint64_t Ir(const CostVector& c) { return c.empty() ? 0 : c[0]; }

const CallEdge* FindEdge(const Profile& p, std::string_view caller, std::string_view callee) {
  for (const auto& e : p.calls) {
    if (p.functions[e.caller].name == caller && p.functions[e.callee].name == callee) return &e;
  }
  return nullptr;
}

uint64_t CallsInto(const Profile& p, std::string_view base) {
  uint64_t n = 0;
  for (const auto& e : p.calls) {
    if (BaseFunctionName(p.functions[e.callee].name) == base) n += e.calls;
  }
  return n;
}

Profile ParseOne(const std::string& text) {
  auto parts = ParseCallgrindProfile(text, "test.out");
  EXPECT_TRUE(parts.ok()) << parts.status().message();
  if (!parts.ok()) return Profile{};
  EXPECT_EQ(parts->size(), 1u);
  return parts->front();
}

std::string ParseError(const std::string& text) {
  auto parts = ParseCallgrindProfile(text, "bad.out");
  EXPECT_FALSE(parts.ok()) << "parsed without error:\n" << text;
  return parts.ok() ? "" : parts.status().message();
}

// Runs real valgrind (through tare's own spawner) with the given arguments.
class CallgrindRun : public ::testing::Test {
 protected:
  void SetUp() override {
    auto spawner = proc::Spawner::Start();
    ASSERT_TRUE(spawner.ok()) << spawner.status().message();
    spawner_ = std::move(*spawner);
    auto valgrind = ResolveExecutable("valgrind");
    ASSERT_TRUE(valgrind.ok()) << "valgrind is a test dependency (scripts/deps.sh): "
                               << valgrind.status().message();
    valgrind_ = *valgrind;
    auto dir = MakeTempDir("tare-attrib-test");
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

  void Run(const std::vector<std::string>& argv, const std::string& stderr_path,
           const std::string& stdout_path = "") {
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

  std::vector<attrib::Profile> Read(const std::string& path) {
    auto parts = ReadCallgrindProfile(path);
    EXPECT_TRUE(parts.ok()) << parts.status().message();
    return parts.ok() ? *parts : std::vector<attrib::Profile>{};
  }

  std::unique_ptr<proc::Spawner> spawner_;
  std::string valgrind_;
  std::string dir_;
};

const std::vector<std::string> kWindowOptions = {
    "--instr-atstart=no", "--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64",
    "--LL=8388608,16,64", "--collect-systime=nsec", "--dump-instr=no"};

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
    EXPECT_EQ(parts[0].events,
              (std::vector<std::string>{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr",
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
  const attrib::Profile& p = parts[0];

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
  Run({"/usr/bin/perl", *annotate, "--threshold=100", "--show=Ir", "--auto=no", out + ".1"},
      dir_ + "/annotate.stderr", report);
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
  const attrib::Profile& p = parts[0];
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

// ---- the stored real profile --------------------------------------------------------------------

// testdata/demo_compute.callgrind is the demo::compute window of callgrind_demo as valgrind 3.19
// wrote it (built -O2 -g by g++ 12 / gcc 12 on Debian 12). The expected numbers below were read
// off the file by hand and agree with `callgrind_annotate --inclusive=no`.
TEST(CallgrindStoredProfile, KnownCosts) {
  auto parts = ReadCallgrindProfile(StoredProfilePath());
  ASSERT_TRUE(parts.ok()) << parts.status().message();
  ASSERT_EQ(parts->size(), 1u);
  const Profile& p = (*parts)[0];
  EXPECT_EQ(p.trigger, "Client Request: demo::compute");
  EXPECT_EQ(p.Total("Ir"), 21522u);
  EXPECT_EQ(Ir(p.FindFunction("leaf")->self), 9000u);
  EXPECT_EQ(Ir(p.FindFunction("loop")->self), 6008u);
  EXPECT_EQ(p.FindFunction("leaf")->calls, 1000u);
  EXPECT_EQ(CallsInto(p, "fib"), 465u);
  EXPECT_EQ(Ir(p.InclusiveOf("fib")), 6507u);
  EXPECT_EQ(p.InclusiveOf("main"), p.totals);
}

// The truncated copies of the stored profile fail with a message naming the file and line.
TEST(CallgrindStoredProfile, TruncatedCopiesAreRejected) {
  auto text = ReadFile(StoredProfilePath());
  ASSERT_TRUE(text.ok());
  // Cut after every line in turn; only the complete file parses.
  size_t rejected = 0, cuts = 0;
  for (size_t pos = text->find('\n'); pos != std::string::npos && pos + 1 < text->size();
       pos = text->find('\n', pos + 1)) {
    ++cuts;
    auto parts = ParseCallgrindProfile(text->substr(0, pos + 1), "cut.out");
    if (!parts.ok()) {
      ++rejected;
      EXPECT_EQ(parts.status().message().rfind("cut.out:", 0), 0u) << parts.status().message();
    }
  }
  EXPECT_GT(cuts, 20u);
  EXPECT_EQ(rejected, cuts);
  // Cut in the middle of the totals line: the numbers disagree with the body.
  size_t totals = text->rfind("totals: ");
  ASSERT_NE(totals, std::string::npos);
  std::string msg = ParseError(text->substr(0, totals + 12));
  EXPECT_NE(msg.find("totals: disagrees with the body"), std::string::npos) << msg;
}

// ---- hand-written input --------------------------------------------------------------------------

// The "Extended Example" of valgrind's Callgrind Format Specification, with name compression:
// main calls func1 once and func2 three times; func1 calls func2 twice.
TEST(CallgrindHandWritten, SpecExampleWithNameCompression) {
  Profile p = ParseOne(R"(# callgrind format
events: Instructions

fl=(1) file1.c
fn=(1) main
16 20
cfn=(2) func1
calls=1 50
16 400
cfi=(2) file2.c
cfn=(3) func2
calls=3 20
16 400

fn=(2)
51 100
cfi=(2)
cfn=(3)
calls=2 20
51 300

fl=(2)
fn=(3)
20 700
)");
  ASSERT_EQ(p.functions.size(), 3u);
  EXPECT_EQ(p.totals, CostVector{820});
  EXPECT_FALSE(p.declared_totals.has_value());
  const FunctionCost* main_fn = p.FindFunction("main");
  const FunctionCost* func1 = p.FindFunction("func1");
  const FunctionCost* func2 = p.FindFunction("func2");
  ASSERT_TRUE(main_fn && func1 && func2);
  EXPECT_EQ(main_fn->self, CostVector{20});
  EXPECT_EQ(main_fn->inclusive, CostVector{820});
  EXPECT_EQ(func1->file, "file1.c");
  EXPECT_EQ(func1->inclusive, CostVector{400});
  EXPECT_EQ(func2->file, "file2.c");
  EXPECT_EQ(func2->self, CostVector{700});
  EXPECT_EQ(func2->calls, 5u);
  ASSERT_EQ(p.calls.size(), 3u);
  EXPECT_EQ(FindEdge(p, "main", "func2")->calls, 3u);
  EXPECT_EQ(FindEdge(p, "main", "func2")->inclusive, CostVector{400});
  EXPECT_EQ(FindEdge(p, "func1", "func2")->inclusive, CostVector{300});
}

// The spec's subposition-compression example: "+3 * 5" is 3 past the previous address on the
// same line; hex and decimal mix freely.
TEST(CallgrindHandWritten, RelativeSubpositions) {
  Profile p = ParseOne(R"(positions: instr line
events: ticks
fn=func
0x80001234 90 1
+3 * 5
+1 +1 6
-4 -1 7
)");
  const FunctionCost* f = p.FindFunction("func");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->lines.size(), 3u);  // the last line repeats the first position and is summed
  EXPECT_EQ(f->lines[0].instr, 0x80001234u);
  EXPECT_EQ(f->lines[0].line, 90u);
  EXPECT_EQ(f->lines[0].self, CostVector{8});
  EXPECT_EQ(f->lines[1].instr, 0x80001237u);
  EXPECT_EQ(f->lines[1].self, CostVector{5});
  EXPECT_EQ(f->lines[2].instr, 0x80001238u);
  EXPECT_EQ(f->lines[2].line, 91u);
  EXPECT_EQ(p.totals, CostVector{19});
}

// Missing trailing costs are zero; "(below main)" is a name, not a compressed id.
TEST(CallgrindHandWritten, DefaultsOfTheFormat) {
  Profile p = ParseOne(R"(events: Ir Dr Dw
ob=(1) /bin/prog
fl=(1) prog.c
fn=(1) (below main)
3 10 2
fi=(2) inline.h
4 5
cfn=(2) helper
calls=2 7
4 50 1 1
fe=(1)
fn=(2)
7 50 1 1
totals: 65 3 1
)");
  const FunctionCost* below = p.FindFunction("(below main)");
  ASSERT_NE(below, nullptr);
  EXPECT_EQ(below->self, (CostVector{15, 2, 0}));
  EXPECT_EQ(below->inclusive, (CostVector{65, 3, 1}));
  // Without cfi= the callee's file is the file of the last cost line, inline.h; helper is
  // defined only once in /bin/prog (in prog.c), so the call is resolved to that definition.
  ASSERT_EQ(p.functions.size(), 2u);
  EXPECT_EQ(p.FindFunction("helper")->file, "prog.c");
  EXPECT_EQ(p.FindFunction("helper")->calls, 2u);
  EXPECT_EQ(p.FindFunction("helper")->object, "/bin/prog");
}

// valgrind writes fi= for the position of a call before the calls= line but decides whether to
// write cfi= against the file of the last *cost line* (callgrind/dump.c, fprint_jcc), so that is
// the callee's default file, not the file fi= just named.
TEST(CallgrindHandWritten, CalleeFileFollowsTheLastCostLine) {
  Profile p = ParseOne(R"(events: Ir
fl=(1) a.c
fn=(1) caller
1 3
fi=(2) a.h
cfn=(2) helper
calls=1 10
2 40
fe=(1)
fn=(2)
10 40
fl=(2)
fn=(2)
20 1
)");
  ASSERT_EQ(p.functions.size(), 3u);
  const CallEdge* e = FindEdge(p, "caller", "helper");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(p.functions[e->callee].file, "a.c");
  EXPECT_EQ(p.functions[e->callee].calls, 1u);
  EXPECT_EQ(p.FindFunction("caller")->inclusive, CostVector{43});
}

TEST(CallgrindHandWritten, RecursionSuffixes) {
  EXPECT_EQ(BaseFunctionName("fib'2"), "fib");
  EXPECT_EQ(BaseFunctionName("fib"), "fib");
  EXPECT_EQ(BaseFunctionName("operator'x"), "operator'x");
  EXPECT_EQ(BaseFunctionName("f'"), "f'");
}

TEST(CallgrindHandWritten, PartsWrittenBackToBack) {
  auto parts = ParseCallgrindProfile(R"(version: 1
creator: hand
pid: 42
cmd: ./a b
part: 1
desc: Trigger: Client Request: one
events: Ir
fn=(1) f
1 10
totals: 10

part: 2
desc: Trigger: Client Request: two
events: Ir
fn=(1)
1 5
fn=(2) g
2 6
totals: 11
)",
                                     "two.out");
  ASSERT_TRUE(parts.ok()) << parts.status().message();
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0].trigger, "Client Request: one");
  EXPECT_EQ((*parts)[1].trigger, "Client Request: two");
  EXPECT_EQ((*parts)[1].part, 2);
  EXPECT_EQ((*parts)[1].pid, 42);
  EXPECT_EQ((*parts)[1].cmd, "./a b");
  EXPECT_EQ((*parts)[1].FindFunction("f")->self, CostVector{5});  // (1) still means f
  EXPECT_EQ((*parts)[1].totals, CostVector{11});
}

// ---- malformed input ----------------------------------------------------------------------------

TEST(CallgrindMalformed, TooManyCostsForTheEvents) {
  std::string msg = ParseError("events: Ir Dr\nfn=f\n1 2 3 4\n");
  EXPECT_EQ(msg, "bad.out:3: cost line has 3 values but events: lists 2 (Ir Dr)");
}

TEST(CallgrindMalformed, UnknownCompressedId) {
  std::string msg = ParseError("events: Ir\nfn=(1) f\n1 2\ncfn=(7)\ncalls=1 1\n1 2\n");
  EXPECT_EQ(msg, "bad.out:4: unknown compressed function id (7): no earlier line defines it");
  msg = ParseError("events: Ir\nfl=(3)\n");
  EXPECT_EQ(msg, "bad.out:2: unknown compressed file id (3): no earlier line defines it");
}

TEST(CallgrindMalformed, RedefinedCompressedId) {
  std::string msg = ParseError("events: Ir\nfn=(1) f\nfn=(1) g\n");
  EXPECT_EQ(msg, "bad.out:3: compressed function id (1) redefined from 'f' to 'g'");
}

TEST(CallgrindMalformed, WrongVersion) {
  std::string msg = ParseError("# callgrind format\nversion: 2\nevents: Ir\n");
  EXPECT_EQ(msg, "bad.out:2: unsupported callgrind format version 2; tare reads version 1 "
                 "(valgrind 3.x)");
}

TEST(CallgrindMalformed, TruncatedAfterCalls) {
  std::string msg = ParseError("events: Ir\nfn=f\n1 2\ncfn=g\ncalls=1 1\n");
  EXPECT_NE(msg.find("bad.out:5: the file ends after this calls=/jump= line"), std::string::npos)
      << msg;
}

TEST(CallgrindMalformed, CallgrindPartWithoutTotals) {
  std::string msg = ParseError("creator: callgrind-3.19.0\nevents: Ir\nfn=f\n1 2\n");
  EXPECT_NE(msg.find("has no totals: line"), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind("bad.out:4:", 0), 0u) << msg;
}

TEST(CallgrindMalformed, TotalsDisagree) {
  std::string msg = ParseError("events: Ir Dr\nfn=f\n1 2 3\n2 2\ntotals: 4 4\n");
  EXPECT_EQ(msg, "bad.out:5: totals: disagrees with the body: Dr = 4 but its cost lines add up "
                 "to 3; the file is corrupt or truncated");
}

TEST(CallgrindMalformed, MoreMistakes) {
  EXPECT_EQ(ParseError(""), "bad.out: the file is empty; it is not a callgrind profile");
  EXPECT_EQ(ParseError("fn=f\n"), "bad.out:1: 'fn=' line before the events: line of this part");
  EXPECT_EQ(ParseError("events: Ir\n1 2\n"),
            "bad.out:2: cost line before any fn= (no function to charge it to)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\ncfn=g\ncalls=1 1\nfn=h\n"),
            "bad.out:5: line 4 (calls=/jump=) must be followed by its cost line, got 'fn=h'");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\ncalls=1 1\n1 1\n"),
            "bad.out:3: calls= without a cfn= naming the called function");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n5 1\n-6 1\n"),
            "bad.out:4: relative subposition '-6' goes below 0 (previous was 5)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n1 x\n"),
            "bad.out:3: cost line: 'x' is not a count (event Ir)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n1 99999999999999999999\n"),
            "bad.out:3: cost line: '99999999999999999999' is not a count (event Ir)");
  EXPECT_EQ(ParseError("events: Ir\nxyz=1\n"), "bad.out:2: unknown position specification 'xyz='");
  EXPECT_EQ(ParseError("events: Ir\nhello world\n"),
            "bad.out:2: unrecognised line 'hello world': expected a header line (key: value), a "
            "position (fn=...) or a cost line");
  EXPECT_EQ(ParseError("events: Ir Ir\n"), "bad.out:1: event 'Ir' listed twice in events:");
  EXPECT_EQ(ParseError("positions: line\n"), "bad.out:1: this part has no events: line");
}

}  // namespace
}  // namespace tare::attrib
