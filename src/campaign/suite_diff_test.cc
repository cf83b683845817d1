// The living suite's listing diff: shared benchmarks become cells in base's order, the rest are new
// or missing per head, never dropped.
#include "campaign/suite_diff.h"

#include <gtest/gtest.h>

namespace tare::campaign {
namespace {

std::vector<target::Benchmark> List(std::initializer_list<const char*> names) {
  std::vector<target::Benchmark> out;
  for (const char* n : names) out.push_back({n, std::string("x::") + n, 0, 0});
  return out;
}

std::vector<std::string> Names(const std::vector<target::Benchmark>& b) {
  std::vector<std::string> out;
  for (const auto& x : b) out.push_back(x.name);
  return out;
}

TEST(SuiteDiff, TheSameSuiteHasNoChanges) {
  SuiteDiff d = DiffSuites(List({"BM_a", "BM_b"}), {{"head", List({"BM_b", "BM_a"})}});
  EXPECT_EQ(Names(d.common), (std::vector<std::string>{"BM_a", "BM_b"})) << "base's order";
  EXPECT_TRUE(d.changes.empty());
  EXPECT_TRUE(d.new_in.empty());
  EXPECT_EQ(SuiteChangeLine(d), "");
}

TEST(SuiteDiff, AddedRemovedAndRenamedBenchmarksAreNewOrMissing) {
  // BM_old renamed to BM_new, BM_gone removed, BM_added added.
  SuiteDiff d = DiffSuites(List({"BM_keep", "BM_old", "BM_gone"}), {{"head", List({"BM_new", "BM_keep", "BM_added"})}});
  EXPECT_EQ(Names(d.common), (std::vector<std::string>{"BM_keep"}));
  ASSERT_EQ(d.changes.size(), 4u);
  EXPECT_EQ(d.changes[0].benchmark, "BM_old");
  EXPECT_EQ(d.changes[0].change, SuiteChange::kMissing);
  EXPECT_EQ(d.changes[0].heads, (std::vector<std::string>{"head"}));
  EXPECT_EQ(d.changes[1].benchmark, "BM_gone");
  EXPECT_EQ(d.changes[2].benchmark, "BM_new");
  EXPECT_EQ(d.changes[2].change, SuiteChange::kNew);
  EXPECT_EQ(d.changes[3].benchmark, "BM_added");
  EXPECT_EQ(d.Count(SuiteChange::kNew), 2u);
  EXPECT_EQ(d.Count(SuiteChange::kMissing), 2u);
  EXPECT_EQ(Names(d.new_in.at("head")), (std::vector<std::string>{"BM_new", "BM_added"}));
  EXPECT_EQ(SuiteChangeLine(d),
            "the suite changed: 2 benchmarks new in head (BM_new, BM_added): measured, no verdict; 2 missing from "
            "head (BM_old, BM_gone): not compared; the 1 benchmark both sides have is the cells");
}

TEST(SuiteDiff, WithSeveralHeadsABenchmarkOneHeadLacksIsNoCellForAny) {
  SuiteDiff d = DiffSuites(List({"BM_a", "BM_b"}),
                           {{"head", List({"BM_a", "BM_b", "BM_c"})}, {"hd02", List({"BM_a", "BM_c", "BM_c"})}});
  EXPECT_EQ(Names(d.common), (std::vector<std::string>{"BM_a"}));
  ASSERT_EQ(d.changes.size(), 2u);
  EXPECT_EQ(d.changes[0].benchmark, "BM_b");
  EXPECT_EQ(d.changes[0].heads, (std::vector<std::string>{"hd02"})) << "missing from hd02 alone";
  EXPECT_EQ(d.changes[1].benchmark, "BM_c");
  EXPECT_EQ(d.changes[1].heads, (std::vector<std::string>{"head", "hd02"})) << "new in both, listed once";
  EXPECT_EQ(Names(d.new_in.at("hd02")), (std::vector<std::string>{"BM_c"})) << "a name listed twice counts once";
}

TEST(SuiteDiff, ManyNamesAreCutInTheLine) {
  SuiteDiff d = DiffSuites(List({"a", "b", "c", "d", "e", "f", "g", "k"}), {{"head", List({"k"})}});
  EXPECT_NE(SuiteChangeLine(d).find("7 missing from head (a, b, c, d, e, and 2 more)"), std::string::npos)
      << SuiteChangeLine(d);
}

}  // namespace
}  // namespace tare::campaign
