// Flame graphs (flame.h) on hand-written profiles: every value below is worked out in the comments
// from the profile text, independently of the code.
#include "attribute/flame.h"

#include <gtest/gtest.h>

#include <string>

namespace tare::attribute {
namespace {

using instrument::ParseCallgrindProfile;
using instrument::Profile;

std::vector<Profile> ParseFlame(const std::string& text) {
  auto parts = ParseCallgrindProfile(text, "flame.out");
  EXPECT_TRUE(parts.ok()) << parts.status().message();
  return parts.ok() ? *parts : std::vector<Profile>{};
}

// base: main (self 10) calls helper (incl 60) and leaf (incl 40); helper (self 50) calls leaf
// (incl 10); leaf's self is 40 + 10 = 50. Total 110.
const char* kFlameBase = R"(events: Ir
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
fn=helper
2 50
cfn=leaf
calls=1 0
2 10
fn=leaf
3 50
totals: 110
)";

// head: helper inlined into main (main's self 10 + 50 = 60), main calls leaf 5 times (incl 80: leaf
// got dearer). Total 140.
const char* kFlameHead = R"(events: Ir
ob=app
fl=a.c
fn=main
1 60
cfn=leaf
calls=5 0
1 80
fn=leaf
3 80
totals: 140
)";

const FlameFrame* Child(const FlameFrame& f, const std::string& name) {
  for (const auto& c : f.children) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(Flame, TheCallGraphGrowsIntoATreeMergedByPath) {
  auto t = BuildFlameTree(ParseFlame(kFlameBase), ParseFlame(kFlameHead));
  ASSERT_TRUE(t.ok()) << t.status().message();
  // all (110, 140) -> main (110, 140) -> helper (60, 0) -> leaf (10, 0); main -> leaf (40, 80).
  EXPECT_EQ(t->name, "all");
  EXPECT_EQ(t->base, 110);
  EXPECT_EQ(t->head, 140);
  ASSERT_EQ(t->children.size(), 1u);
  const FlameFrame& main = t->children[0];
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(main.base, 110);
  EXPECT_EQ(main.head, 140);
  const FlameFrame* helper = Child(main, "helper");
  const FlameFrame* leaf = Child(main, "leaf");
  ASSERT_NE(helper, nullptr);
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(helper->base, 60);
  EXPECT_EQ(helper->head, 0) << "gone in head, still drawn";
  EXPECT_EQ(leaf->base, 40);
  EXPECT_EQ(leaf->head, 80);
  const FlameFrame* deep = Child(*helper, "leaf");
  ASSERT_NE(deep, nullptr);
  EXPECT_EQ(deep->base, 10);
  EXPECT_EQ(deep->head, 0);

  // One side alone: both values are that side's.
  auto one = BuildFlameTree(ParseFlame(kFlameBase));
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->base, 110);
  EXPECT_EQ(one->head, 110);
}

// A window dumped in the middle of a run (an unmodified Google Benchmark binary under sim: the
// window opens inside State::StartKeepRunning) records the calls already on the stack with
// calls=0 and the window's cost as their inclusive cost. They are one stack, not three roots:
// (below main) -> main -> BM_Copy (self 40) -> memcpy (60), total 100 — not 300, with every
// share a third of the truth (issue 44, item 6).
TEST(Flame, CallsAlreadyOnTheStackWhenTheWindowOpenedAreOneStack) {
  const char* window = R"(events: Ir
ob=libc
fl=start.c
fn=(below main)
cob=app
cfi=b.cc
cfn=main
calls=0 0
1 100
ob=app
fl=b.cc
fn=main
cfn=BM_Copy
calls=0 0
2 100
fn=BM_Copy
3 40
cob=libc
cfi=mem.S
cfn=memcpy
calls=3 0
3 60
ob=libc
fl=mem.S
fn=memcpy
4 60
totals: 100
)";
  auto t = BuildFlameTree(ParseFlame(window));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->base, 100);
  ASSERT_EQ(t->children.size(), 1u);
  EXPECT_EQ(t->children[0].name, "(below main)");
  const FlameFrame* main = Child(t->children[0], "main");
  ASSERT_NE(main, nullptr);
  const FlameFrame* bm = Child(*main, "BM_Copy");
  ASSERT_NE(bm, nullptr);
  EXPECT_EQ(bm->base, 100);
  const FlameFrame* memcpy_frame = Child(*bm, "memcpy");
  ASSERT_NE(memcpy_frame, nullptr);
  EXPECT_EQ(memcpy_frame->base, 60);
}

TEST(Flame, TheDifferentialSvgColoursEachFrameByItsChange) {
  auto t = BuildFlameTree(ParseFlame(kFlameBase), ParseFlame(kFlameHead));
  ASSERT_TRUE(t.ok());
  const std::string svg = RenderFlameSvg(*t, "BM_X: base -> head", "Ir", true);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg;
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  size_t frames = 0;
  for (size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++frames;
  EXPECT_EQ(frames, 1u + 5u) << "the background and the five frames: " << svg;
  // The largest change of a frame (root aside) is helper's -60. helper: saturation 40 + 180 * 60/60
  // = 220: rgb(35,35,255); leaf 40 -> 80: 40 + 180 * 40/60 = 160: rgb(255,95,95).
  EXPECT_NE(svg.find("<title>helper [app]: Ir base 60 → head 0 (-60, -54.55% of the base total)</title><rect"),
            std::string::npos)
      << svg;
  const size_t helper = svg.find("<title>helper [app]");
  EXPECT_NE(svg.find("fill=\"rgb(35,35,255)\"", helper), std::string::npos);
  const size_t leaf = svg.find("<title>leaf [app]: Ir base 40 → head 80 (+40, +36.36% of the base total)");
  ASSERT_NE(leaf, std::string::npos) << svg;
  EXPECT_LT(svg.find("fill=\"rgb(255,95,95)\"", leaf), svg.find("</g>", leaf));
  // Widths: the larger side's self plus the children. main: max(110-100, 140-80) = 60, helper
  // 50 + leaf 10 = 60, leaf 80: 200 in all, drawn over 1180 px: main's frame 1180 px wide, helper
  // 60/200 of it.
  EXPECT_NE(svg.find("width=\"1180.00\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("width=\"354.00\""), std::string::npos) << "helper: 1180 * 60 / 200";
  EXPECT_NE(svg.find("width=\"472.00\""), std::string::npos) << "leaf under main: 1180 * 80 / 200";
}

TEST(Flame, RecursionEndsAndHostileNamesAreEscaped) {
  // main -> a (incl 40); a -> b (30); b -> a'2 (20): a is on the path, so b does not enter it again.
  const char* text = R"(events: Ir
ob=app
fn=main
1 5
cfn=a
calls=1 0
1 40
fn=a
1 10
cfn=b
calls=1 0
1 30
fn=b
1 10
cfn=a'2
calls=1 0
1 20
fn=a'2
1 20
fn=<script>alert(1)</script>&"'
1 3
totals: 48
)";
  auto t = BuildFlameTree(ParseFlame(text));
  ASSERT_TRUE(t.ok()) << t.status().message();
  const FlameFrame* main = Child(*t, "main");
  ASSERT_NE(main, nullptr);
  const FlameFrame* a = Child(*main, "a");
  ASSERT_NE(a, nullptr);
  const FlameFrame* b = Child(*a, "b");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->children.empty()) << "a is already on the path";
  const std::string svg = RenderFlameSvg(*t, "<b>title</b>", "Ir", false);
  EXPECT_EQ(svg.find("<script"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("<b>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;"), std::string::npos) << svg;

  auto missing = BuildFlameTree(ParseFlame(kFlameBase), FlameOptions{.event = "D1mr"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("has no event 'D1mr' to draw"), std::string::npos);
}

}  // namespace
}  // namespace tare::attribute
