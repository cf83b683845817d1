// The attribution arithmetic on hand-written profiles. Every expected number is worked out in the
// comments from the profile text, independently of the code: self sums, inclusive = self + the
// calls' inclusive cost, and the split (n1 - n0) * c0 + n1 * (c1 - c0).
#include "attribute/attribution.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace tare::attribute {
namespace {

using instrument::ParseCallgrindProfile;
using instrument::Profile;

std::vector<Profile> Parse(const std::string& text, const std::string& name = "test.out") {
  auto parts = ParseCallgrindProfile(text, name);
  EXPECT_TRUE(parts.ok()) << parts.status().message();
  return parts.ok() ? *parts : std::vector<Profile>{};
}

const FunctionRow* Row(const AttributionResult& r, const std::string& name, const std::string& object = "app") {
  for (const auto& row : r.rows) {
    if (row.name == name && row.object == object) return &row;
  }
  return nullptr;
}

// base: main (self 10) calls helper 2x (incl 60: 30 a call), leaf 4x (incl 40: 10 a call), and
// libx's helper 1x (5). Total 10 + 60 + 40 + 5 = 115.
const char* kBase = R"(events: Ir
ob=app
fl=a.c
fn=main
1 10
cfn=helper
calls=2 0
1 60
cfn=leaf
calls=4 0
1 40
cob=libx
cfn=helper
calls=1 0
1 5
fn=helper
2 60
fn=leaf
3 40
ob=libx
fl=x.c
fn=helper
1 5
totals: 115
)";

// head: main (self 12) calls helper 3x (incl 75: 25 a call), newfn 1x (7), libx's helper 1x (5);
// leaf is gone. Total 12 + 75 + 7 + 5 = 99: change -16.
const char* kHead = R"(events: Ir
ob=app
fl=a.c
fn=main
1 12
cfn=helper
calls=3 0
1 75
cfn=newfn
calls=1 0
1 7
cob=libx
cfn=helper
calls=1 0
1 5
fn=helper
2 75
fn=newfn
4 7
ob=libx
fl=x.c
fn=helper
1 5
totals: 99
)";

TEST(Attribute, TotalsAndSelfDeltasSumToTheTotal) {
  auto r = Attribute(Parse(kBase), Parse(kHead));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->base_total, 115u);
  EXPECT_EQ(r->head_total, 99u);
  EXPECT_EQ(r->total_delta, -16);
  double sum = 0;
  for (const auto& row : r->rows) sum += row.self_delta;
  EXPECT_EQ(sum, -16);
  EXPECT_EQ(r->SelfDeltaOfTop(r->rows.size()), -16);
  // Sorted by |self change|: leaf 40, helper 15, newfn 7, main 2, libx helper 0.
  ASSERT_EQ(r->rows.size(), 5u);
  EXPECT_EQ(r->rows[0].name, "leaf");
  EXPECT_EQ(r->rows[1].name, "helper");
  EXPECT_EQ(r->rows[1].object, "app");
  EXPECT_EQ(r->rows[2].name, "newfn");
  EXPECT_EQ(r->rows[3].name, "main");
  EXPECT_EQ(r->rows[4].object, "libx");
  // Top 2 rows: -40 + 15 = -25 of -16; |.|: 55 of 40 + 15 + 7 + 2 = 64.
  EXPECT_EQ(r->SelfDeltaOfTop(2), -25);
  EXPECT_DOUBLE_EQ(r->GrossShareOfTop(2), 55.0 / 64.0);
}

TEST(Attribute, CallsTimesPerCallSplitSumsToTheInclusiveChange) {
  auto r = Attribute(Parse(kBase), Parse(kHead));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FunctionRow* helper = Row(*r, "helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper->presence, Presence::kBoth);
  EXPECT_EQ(helper->base.calls, 2u);
  EXPECT_EQ(helper->head.calls, 3u);
  EXPECT_EQ(*helper->base.PerCall(), 30.0);
  EXPECT_EQ(*helper->head.PerCall(), 25.0);
  EXPECT_EQ(helper->inclusive_delta, 15);
  // (3 - 2) * 30 = +30 from one more call; 3 * (25 - 30) = -15 from cheaper calls.
  EXPECT_EQ(*helper->calls_part, 30);
  EXPECT_EQ(*helper->per_call_part, -15);
  EXPECT_EQ(*helper->calls_part + *helper->per_call_part, helper->inclusive_delta);
  EXPECT_DOUBLE_EQ(helper->share, 15.0 / -16.0);

  // main: inclusive 115 -> 99, but nobody calls it: no split.
  const FunctionRow* main = Row(*r, "main");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->base.inclusive, 115u);
  EXPECT_EQ(main->head.inclusive, 99u);
  EXPECT_FALSE(main->calls_part.has_value());
  EXPECT_FALSE(main->per_call_part.has_value());
}

TEST(Attribute, NewAndGoneFunctions) {
  auto r = Attribute(Parse(kBase), Parse(kHead));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FunctionRow* leaf = Row(*r, "leaf");
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(leaf->presence, Presence::kGone);
  EXPECT_FALSE(leaf->head.present);
  EXPECT_EQ(leaf->self_delta, -40);
  EXPECT_EQ(*leaf->calls_part, -40);  // (0 - 4) * 10
  EXPECT_EQ(*leaf->per_call_part, 0);
  EXPECT_DOUBLE_EQ(leaf->share, 2.5);  // -40 / -16
  const FunctionRow* fresh = Row(*r, "newfn");
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(fresh->presence, Presence::kNew);
  EXPECT_EQ(*fresh->calls_part, 7);  // not called in base: the whole change is calls
  EXPECT_EQ(*fresh->per_call_part, 0);
  // leaf's 40 left main's 4 calls and main's self grew by 2, not ~40: outside the tolerance, but
  // (40 - 2) / 4 = 9.5 per call is what a call can cost, so main is named, marked as outside it.
  ASSERT_TRUE(leaf->inlining.has_value());
  EXPECT_FALSE(leaf->inlining->within_tolerance);
  EXPECT_EQ(leaf->inlining->caller, "main");
  EXPECT_EQ(leaf->inlining->calls, 4u);
  EXPECT_EQ(leaf->inlining->expected, 40);
  EXPECT_DOUBLE_EQ(leaf->inlining->call_overhead, 9.5);
}

TEST(Attribute, SameNameInTwoObjectsStaysTwoRows) {
  auto r = Attribute(Parse(kBase), Parse(kHead));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FunctionRow* app = Row(*r, "helper", "app");
  const FunctionRow* lib = Row(*r, "helper", "libx");
  ASSERT_NE(app, nullptr);
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(lib->base.self, 5u);
  EXPECT_EQ(lib->base.calls, 1u);
  EXPECT_EQ(lib->self_delta, 0);
  EXPECT_EQ(app->base.self, 60u);
}

// Recursion levels fold into one function: fib (self 10) calls fib'2 twice (20); main calls fib
// once. fib: self 10 + 20 = 30, inclusive 30 (its calls to itself are not added), calls 1.
TEST(Attribute, RecursionLevelsFold) {
  const char* text = R"(events: Ir
ob=app
fn=main
1 1
cfn=fib
calls=1 0
1 30
fn=fib
2 10
cfn=fib'2
calls=2 0
2 20
fn=fib'2
3 20
)";
  auto r = Attribute(Parse(text), Parse(text));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FunctionRow* fib = Row(*r, "fib");
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(fib->base.self, 30u);
  EXPECT_EQ(fib->base.inclusive, 30u);
  EXPECT_EQ(fib->base.calls, 1u);
  EXPECT_EQ(Row(*r, "fib'2"), nullptr);
  EXPECT_EQ(r->total_delta, 0);
}

// Several parts (dumps) of a side are summed.
TEST(Attribute, PartsOfASideAreSummed) {
  const char* two = R"(events: Ir
part: 1
ob=app
fn=f
1 10
totals: 10

part: 2
events: Ir
ob=app
fn=f
1 5
fn=g
1 3
totals: 8
)";
  auto r = Attribute(Parse(two), Parse("events: Ir\nob=app\nfn=f\n1 20\n"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->base_parts, 2u);
  EXPECT_EQ(r->base_total, 18u);
  EXPECT_EQ(Row(*r, "f")->base.self, 15u);
  EXPECT_EQ(Row(*r, "f")->self_delta, 5);
  EXPECT_EQ(Row(*r, "g")->presence, Presence::kGone);
}

TEST(Attribute, EventIsChosenAndCheckedOnBothSides) {
  const char* two_events = "events: Ir Dr\nob=app\nfn=f\n1 10 4\n";
  auto dr = Attribute(Parse(two_events), Parse("events: Ir Dr\nob=app\nfn=f\n1 10 9\n"), {.event = "Dr"});
  ASSERT_TRUE(dr.ok()) << dr.status().message();
  EXPECT_EQ(dr->total_delta, 5);

  auto missing = Attribute(Parse(two_events), Parse("events: Ir\nob=app\nfn=f\n1 10\n"), {.event = "Dr"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(
      missing.status().message().find("the head profile 'test.out' (part 1) has no event 'Dr'; its events are: Ir"),
      std::string::npos)
      << missing.status().message();
  EXPECT_NE(missing.status().message().find("events in both profiles: Ir"), std::string::npos);

  auto unknown = Attribute(Parse(two_events), Parse(two_events), {.event = "Bogus"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("its events are: Ir Dr"), std::string::npos);
}

// f (500 a side, 10 calls) inlined into main: main's self grows by 490 (the calls' overhead is
// saved), within 25% of the 500 that left the calls.
std::string InlineBase(uint64_t f_self, uint64_t g_cost) {
  const uint64_t f_incl = f_self + g_cost;
  std::string text = "events: Ir\nob=app\nfn=main\n1 100\ncfn=f\ncalls=10 0\n1 " + std::to_string(f_incl) +
                     "\nfn=f\n2 " + std::to_string(f_self) + "\n";
  if (g_cost > 0)
    text += "cfn=g\ncalls=10 0\n2 " + std::to_string(g_cost) + "\nfn=g\n3 " + std::to_string(g_cost) + "\n";
  return text;
}
std::string InlineHead(uint64_t main_self, uint64_t g_cost) {
  std::string text = "events: Ir\nob=app\nfn=main\n1 " + std::to_string(main_self) + "\n";
  if (g_cost > 0)
    text += "cfn=g\ncalls=10 0\n1 " + std::to_string(g_cost) + "\nfn=g\n3 " + std::to_string(g_cost) + "\n";
  return text;
}

TEST(Attribute, InlinedIntoItsCaller) {
  auto r = Attribute(Parse(InlineBase(500, 0)), Parse(InlineHead(590, 0)));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FunctionRow* f = Row(*r, "f");
  ASSERT_NE(f, nullptr);
  ASSERT_TRUE(f->inlining.has_value());
  EXPECT_EQ(f->inlining->kind, InliningFinding::Kind::kInlinedInto);
  EXPECT_EQ(f->inlining->caller, "main");
  EXPECT_EQ(f->inlining->expected, 500);
  EXPECT_EQ(f->inlining->caller_self_delta, 490);
  EXPECT_FALSE(Row(*r, "main")->inlining.has_value());

  // The mirror: head calls f, base had it inlined.
  auto back = Attribute(Parse(InlineHead(590, 0)), Parse(InlineBase(500, 0)));
  ASSERT_TRUE(back.ok());
  ASSERT_TRUE(Row(*back, "f")->inlining.has_value());
  EXPECT_EQ(Row(*back, "f")->inlining->kind, InliningFinding::Kind::kNoLongerInlined);
  EXPECT_EQ(Row(*back, "f")->inlining->caller, "main");
  EXPECT_EQ(Row(*back, "f")->inlining->expected, -500);
}

TEST(Attribute, InliningToleranceIsTwentyFivePercent) {
  // main grows by 376: |376 - 500| = 124 <= 125, within. By 374: 126 > 125, outside, but the calls
  // then cost (500 - 374) / 10 = 12.6 each, which a call can: still named, marked outside.
  auto in = Attribute(Parse(InlineBase(500, 0)), Parse(InlineHead(476, 0)));
  ASSERT_TRUE(in.ok());
  ASSERT_TRUE(Row(*in, "f")->inlining.has_value());
  EXPECT_TRUE(Row(*in, "f")->inlining->within_tolerance);
  EXPECT_DOUBLE_EQ(Row(*in, "f")->inlining->call_overhead, 12.4);  // (500 - 376) / 10
  auto out = Attribute(Parse(InlineBase(500, 0)), Parse(InlineHead(474, 0)));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(Row(*out, "f")->inlining.has_value());
  EXPECT_FALSE(Row(*out, "f")->inlining->within_tolerance);
  EXPECT_DOUBLE_EQ(Row(*out, "f")->inlining->call_overhead, 12.6);
  // f costing 1000 a call (10000 over 10 calls) gone, main +100: (10000 - 100) / 10 = 990 a call is
  // no call's overhead (the limit is 64): f was removed, not inlined. No claim.
  auto removed = Attribute(Parse(InlineBase(10000, 0)), Parse(InlineHead(200, 0)));
  ASSERT_TRUE(removed.ok());
  EXPECT_FALSE(Row(*removed, "f")->inlining.has_value());
}

// f (self 200) calls g (300); after inlining f, main calls g itself and its self grows by f's
// self share of the moved cost: 500 * 200/500 = 200 (here 195), not the whole 500.
TEST(Attribute, InlinedFunctionWhoseCalleesStayCalls) {
  auto r = Attribute(Parse(InlineBase(200, 300)), Parse(InlineHead(295, 300)));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FunctionRow* f = Row(*r, "f");
  ASSERT_TRUE(f->inlining.has_value());
  EXPECT_EQ(f->inlining->caller, "main");
  EXPECT_EQ(f->inlining->expected, 200);
  EXPECT_FALSE(Row(*r, "g")->inlining.has_value());  // still called, as often
}

// Two builds of one program live at different paths; the profiled program (cmd:'s first word) is
// one object on both sides, other objects are matched by path.
TEST(Attribute, TheProgramIsMatchedAcrossPaths) {
  auto r =
      Attribute(Parse("cmd: /a/prog_base 7\nevents: Ir\nob=/a/prog_base\nfn=f\n1 10\nob=/lib/libc.so.6\nfn=g\n1 3\n"),
                Parse("cmd: /b/prog_head 7\nevents: Ir\nob=/b/prog_head\nfn=f\n1 12\nob=/lib/libc.so.6\nfn=g\n1 3\n"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0].name, "f");
  EXPECT_EQ(r->rows[0].presence, Presence::kBoth);
  EXPECT_TRUE(r->rows[0].in_program);
  EXPECT_EQ(r->rows[0].object, "/a/prog_base");
  EXPECT_EQ(r->rows[0].self_delta, 2);
  EXPECT_FALSE(r->rows[1].in_program);
  EXPECT_EQ(r->rows[1].presence, Presence::kBoth);
}

TEST(Attribute, EmptySideIsAnError) {
  auto r = Attribute({}, Parse(kHead));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("base side has no profile"), std::string::npos);
}

// Issue 24: code without a symbol (callgrind's "0x..." names: the loader, a stripped library) is
// one row per object, and rows whose cost did not move are counted apart from those that did.
TEST(Attribution, CodeWithoutASymbolIsOneRowPerObjectAndUnchangedRowsAreCounted) {
  // base: main 10, still 5 (unchanged), and two addresses in ld.so (3 + 4); head: main 12, still 5,
  // three addresses in ld.so (3 + 4 + 2). Totals 22 -> 26: change +4 = main +2, (no symbol) +2.
  const char* base = R"(events: Ir
ob=app
fl=a.c
fn=main
1 10
fn=still
1 5
ob=/lib/ld.so
fl=???
fn=0x0000000000001000
0 3
fn=0x0000000000002000
0 4
totals: 22
)";
  const char* head = R"(events: Ir
ob=app
fl=a.c
fn=main
1 12
fn=still
1 5
ob=/lib/ld.so
fl=???
fn=0x0000000000001000
0 3
fn=0x0000000000002000
0 4
fn=0x00000000000030a0
0 2
totals: 26
)";
  auto r = Attribute(Parse(base), Parse(head));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->rows.size(), 3u) << "main, still, and one row for ld.so's addresses";
  const FunctionRow* ld = Row(*r, kNoSymbol, "/lib/ld.so");
  ASSERT_NE(ld, nullptr);
  EXPECT_EQ(ld->base.self, 7u);
  EXPECT_EQ(ld->head.self, 9u);
  EXPECT_EQ(ld->self_delta, 2);
  EXPECT_EQ(ld->presence, Presence::kBoth);
  EXPECT_FALSE(ld->inlining.has_value());
  EXPECT_EQ(r->ChangedRows(), 2u);
  EXPECT_TRUE(r->rows[0].Changed());
  EXPECT_TRUE(r->rows[1].Changed());
  EXPECT_EQ(r->rows[2].name, "still");
  EXPECT_FALSE(r->rows[2].Changed());
  EXPECT_EQ(r->SelfDeltaOfTop(2), 4) << "the changed rows hold the whole change";
}

}  // namespace
}  // namespace tare::attribute
