// The callgrind reader on stored and hand-written input: a real profile kept in testdata/, the
// format specification's examples, and malformed or hostile files (a profile directory is
// written by the benchmark, so every error must be a clean DataLoss Status).
#include "instrument/callgrind_profile.h"

#include <gtest/gtest.h>

#include <string>

#include "base/files.h"
#include "instrument/internal/callgrind_test_util.h"

namespace tare::instrument {
namespace {

using callgrind_test::CallsInto;
using callgrind_test::FindEdge;
using callgrind_test::Ir;
using callgrind_test::ParseError;
using callgrind_test::ParseOne;
using callgrind_test::StoredProfilePath;

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
  EXPECT_EQ(msg,
            "bad.out:2: unsupported callgrind format version 2; tare reads version 1 "
            "(valgrind 3.x)");
}

TEST(CallgrindMalformed, TruncatedAfterCalls) {
  std::string msg = ParseError("events: Ir\nfn=f\n1 2\ncfn=g\ncalls=1 1\n");
  EXPECT_NE(msg.find("bad.out:5: the file ends after this calls=/jump= line"), std::string::npos) << msg;
}

TEST(CallgrindMalformed, CallgrindPartWithoutTotals) {
  std::string msg = ParseError("creator: callgrind-3.19.0\nevents: Ir\nfn=f\n1 2\n");
  EXPECT_NE(msg.find("has no totals: line"), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind("bad.out:4:", 0), 0u) << msg;
}

TEST(CallgrindMalformed, TotalsDisagree) {
  std::string msg = ParseError("events: Ir Dr\nfn=f\n1 2 3\n2 2\ntotals: 4 4\n");
  EXPECT_EQ(msg,
            "bad.out:5: totals: disagrees with the body: Dr = 4 but its cost lines add up "
            "to 3; the file is corrupt or truncated");
}

TEST(CallgrindMalformed, MoreMistakes) {
  EXPECT_EQ(ParseError(""), "bad.out: the file is empty; it is not a callgrind profile");
  EXPECT_EQ(ParseError("fn=f\n"), "bad.out:1: 'fn=' line before the events: line of this part");
  EXPECT_EQ(ParseError("events: Ir\n1 2\n"), "bad.out:2: cost line before any fn= (no function to charge it to)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\ncfn=g\ncalls=1 1\nfn=h\n"),
            "bad.out:5: line 4 (calls=/jump=) must be followed by its cost line, got 'fn=h'");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\ncalls=1 1\n1 1\n"),
            "bad.out:3: calls= without a cfn= naming the called function");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n5 1\n-6 1\n"),
            "bad.out:4: relative subposition '-6' goes below 0 (previous was 5)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n1 x\n"), "bad.out:3: cost line: 'x' is not a count (event Ir)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n1 99999999999999999999\n"),
            "bad.out:3: cost line: '99999999999999999999' is not a count (event Ir)");
  EXPECT_EQ(ParseError("events: Ir\nxyz=1\n"), "bad.out:2: unknown position specification 'xyz='");
  EXPECT_EQ(ParseError("events: Ir\nhello world\n"),
            "bad.out:2: unrecognised line 'hello world': expected a header line (key: value), a "
            "position (fn=...) or a cost line");
  EXPECT_EQ(ParseError("events: Ir Ir\n"), "bad.out:1: event 'Ir' listed twice in events:");
  EXPECT_EQ(ParseError("positions: line\n"), "bad.out:1: this part has no events: line");
}

// ---- hostile input ------------------------------------------------------------------------------
// A benchmark under --instrument sim can write any file into its profile directory, so these are
// attacks, not accidents: each must end in a DataLoss Status naming the line, never in undefined
// behaviour (the sanitizer build, -fsanitize=address,undefined, runs them too).

// Issue 9, item 1: "positions:" with more than three entries made the reader read and write past
// its three per-column subposition slots (a heap overflow). A kind may now appear once.
TEST(CallgrindHostile, PositionKindListedTwiceIsRejected) {
  auto parts = ParseCallgrindProfile(R"(version: 1
positions: instr line instr line
events: Ir
fl=(1) a.c
fn=(1) g
1 2 3 4 5
)",
                                     "bad.out");
  ASSERT_FALSE(parts.ok());
  EXPECT_EQ(parts.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(parts.status().message(),
            "bad.out:2: position kind 'instr' listed twice in positions: 'instr line instr "
            "line'; each kind may appear once (callgrind writes 'line', 'instr', or both: 'instr "
            "line')");
  EXPECT_EQ(ParseError("positions: line line\nevents: Ir\nfn=f\n1 2 3\n"),
            "bad.out:1: position kind 'line' listed twice in positions: 'line line'; each kind may "
            "appear once (callgrind writes 'line', 'instr', or both: 'instr line')");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n1 1\ntotals: 1\npositions: line bb line bb\n"),
            "bad.out:5: position kind 'line' listed twice in positions: 'line bb line bb'; each "
            "kind may appear once (callgrind writes 'line', 'instr', or both: 'instr line')");
}

// All three kinds, the most a positions: line can hold: each column is relative to its own
// previous value, and a calls= target may name all three.
TEST(CallgrindHostile, ThreePositionKindsStayInTheirColumns) {
  Profile p = ParseOne(R"(positions: instr bb line
events: Ir
fn=f
0x10 7 3 5
+2 * +1 6
cfn=g
calls=1 0x20 1 1
* * * 4
)");
  const FunctionCost* f = p.FindFunction("f");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->lines.size(), 2u);
  EXPECT_EQ(f->lines[0].instr, 0x10u);
  EXPECT_EQ(f->lines[0].line, 3u);
  EXPECT_EQ(f->lines[1].instr, 0x12u);
  EXPECT_EQ(f->lines[1].line, 4u);
  EXPECT_EQ(f->self, CostVector{11});
  EXPECT_EQ(f->inclusive, CostVector{15});
}

// Numbers are parsed without exceptions or wrap-around: too large for 64 bits, too large for the
// signed pid/thread/part fields, or a relative subposition that would pass 2^64 - 1.
TEST(CallgrindHostile, OutOfRangeNumbersAreCleanErrors) {
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n12345678901234567890123 1\n"),
            "bad.out:3: bad subposition '12345678901234567890123'");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n1 1\n+12345678901234567890123 1\n"),
            "bad.out:4: bad relative subposition '+12345678901234567890123'");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\n0xffffffffffffffff 1\n+1 1\n"),
            "bad.out:4: relative subposition '+1' goes past 2^64 - 1 (previous was "
            "18446744073709551615)");
  EXPECT_EQ(ParseError("events: Ir\nfn=(12345678901234567890123) f\n"),
            "bad.out:2: bad compressed name '(12345678901234567890123) f'");
  EXPECT_EQ(ParseError("pid: 12345678901234567890123\nevents: Ir\n"),
            "bad.out:1: pid: needs a number, got '12345678901234567890123'");
  EXPECT_EQ(ParseError("pid: 9223372036854775808\nevents: Ir\nfn=f\n1 1\n"),
            "bad.out:1: pid: 9223372036854775808 is out of range (at most 2^63 - 1)");
  EXPECT_EQ(ParseError("part: 18446744073709551615\nevents: Ir\nfn=f\n1 1\n"),
            "bad.out:1: part: 18446744073709551615 is out of range (at most 2^63 - 1)");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\ncfn=g\ncalls=12345678901234567890123 1\n1 1\n"),
            "bad.out:4: bad calls= count '12345678901234567890123'");
  EXPECT_EQ(ParseError("events: Ir\nfn=f\ncfn=g\ncalls=1 1 2\n1 1\n"),
            "bad.out:4: calls= target has 2 subpositions, positions: has 1");
}

// Random single-byte corruptions of the stored real profile: every one parses or fails with a
// DataLoss Status naming the file; none crashes (and none trips the sanitizers).
TEST(CallgrindHostile, CorruptedCopiesOfARealProfile) {
  auto text = ReadFile(StoredProfilePath());
  ASSERT_TRUE(text.ok());
  const std::string alphabet = "0123456789+-*()=:x \n";
  uint64_t state = 0x9e3779b97f4a7c15ULL;  // fixed seed: the same corruptions every run
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  for (int i = 0; i < 3000; ++i) {
    std::string copy = *text;
    for (int edits = 1 + static_cast<int>(next() % 3); edits > 0; --edits) {
      copy[next() % copy.size()] = alphabet[next() % alphabet.size()];
    }
    auto parts = ParseCallgrindProfile(copy, "m.out");
    if (!parts.ok()) {
      EXPECT_EQ(parts.status().code(), StatusCode::kDataLoss) << parts.status().message();
      EXPECT_EQ(parts.status().message().rfind("m.out", 0), 0u) << parts.status().message();
    }
  }
}

}  // namespace
}  // namespace tare::instrument
