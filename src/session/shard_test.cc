#include "session/shard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace tare::session {
namespace {

std::vector<std::string> Names(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("BM_" + std::to_string(100 + i));
  return out;
}

TEST(ShardTest, ParsesKOfN) {
  auto s = ParseShard("2/4");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 4);
  EXPECT_EQ(s->weights_source, "equal");
  auto one = ParseShard("1/1");
  ASSERT_TRUE(one.ok());
}

TEST(ShardTest, RefusesBadForms) {
  for (const char* bad :
       {"0/4", "5/4", "2/0", "x", "", "/4", "2/", "2/4/1", "-1/4", "2 /4", "+2/4", "2/4x", "1/99999999999"}) {
    auto s = ParseShard(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.status().message().find("--shard"), std::string::npos) << s.status().message();
  }
  EXPECT_NE(ParseShard("5/4").status().message().find("K must be from 1 to N=4"), std::string::npos);
  EXPECT_NE(ParseShard("0/4").status().message().find("K must be from 1 to N=4"), std::string::npos);
}

// Equal weights: a round-robin over the sorted names, whatever order they came in.
TEST(ShardTest, EqualWeightsDealByName) {
  ShardSpec spec = *ParseShard("1/3");
  std::vector<std::string> names = {"c", "a", "e", "b", "d", "a"};  // "a" twice: counted once
  ShardRecord r = AssignShards(names, spec, "g");
  ASSERT_EQ(r.assignment.size(), 5u);
  const std::vector<std::pair<std::string, int64_t>> expected = {{"a", 1}, {"b", 2}, {"c", 3}, {"d", 1}, {"e", 2}};
  EXPECT_EQ(r.assignment, expected);
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.index, 1);
  EXPECT_EQ(r.group, "g");
  EXPECT_EQ(r.weights, "equal");
  EXPECT_EQ(ShardOf(r, "d"), 1);
  EXPECT_EQ(ShardOf(r, "zz"), 0);
}

// Every job computes the same assignment from the same inputs, whatever their order or K; the
// digest depends on the assignment only.
TEST(ShardTest, DeterministicAcrossJobsAndOrders) {
  std::vector<std::string> names = Names(37);
  std::map<std::string, int64_t> weights;
  std::mt19937 rng(7);
  for (const auto& n : names) weights[n] = 1000 + static_cast<int64_t>(rng() % 100000);
  std::string digest;
  std::vector<std::pair<std::string, int64_t>> first;
  for (int k = 1; k <= 4; ++k) {
    ShardSpec spec = *ParseShard(std::to_string(k) + "/4");
    spec.weights = weights;
    std::shuffle(names.begin(), names.end(), rng);
    ShardRecord r = AssignShards(names, spec, "g");
    if (k == 1) {
      digest = r.assignment_sha256;
      first = r.assignment;
    }
    EXPECT_EQ(r.assignment_sha256, digest);
    EXPECT_EQ(r.assignment, first);
    EXPECT_EQ(r.assignment_sha256, AssignmentSha256(4, r.assignment));
  }
  // The union of the 4 parts is the whole list, with no overlap (each name has exactly one shard).
  std::map<int64_t, int> per_shard;
  for (const auto& [name, k] : first) {
    ASSERT_GE(k, 1);
    ASSERT_LE(k, 4);
    ++per_shard[k];
  }
  EXPECT_EQ(per_shard.size(), 4u);
  EXPECT_EQ(first.size(), 37u);
  // Other weights: another digest.
  ShardSpec other = *ParseShard("1/4");
  EXPECT_NE(AssignShards(names, other, "g").assignment_sha256, digest);
}

// Greedy longest-processing-time with the weights: one heavy benchmark gets a shard of its own;
// the loads end within the largest single weight of each other (LPT's bound).
TEST(ShardTest, BalancesByWeight) {
  ShardSpec spec = *ParseShard("1/3");
  spec.weights = {{"heavy", 900}, {"a", 100}, {"b", 100}, {"c", 100}, {"d", 100}, {"e", 100}, {"f", 100}};
  ShardRecord r = AssignShards({"a", "b", "c", "d", "e", "f", "heavy"}, spec, "g");
  const int64_t heavy = ShardOf(r, "heavy");
  EXPECT_EQ(heavy, 1);  // heaviest first, to the lowest index
  std::map<int64_t, int64_t> load;
  for (const auto& [name, k] : r.assignment) {
    load[k] += spec.weights[name];
    if (name != "heavy") {
      EXPECT_NE(k, heavy) << name;
    }
  }
  EXPECT_EQ(load[1], 900);
  EXPECT_EQ(load[2], 300);
  EXPECT_EQ(load[3], 300);

  // Random weights: max load - min load <= max weight.
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 5 + static_cast<int>(rng() % 60);
    ShardSpec s = *ParseShard("1/4");
    int64_t biggest = 0;
    for (const auto& name : Names(n)) {
      s.weights[name] = 1 + static_cast<int64_t>(rng() % 1'000'000);
      biggest = std::max(biggest, s.weights[name]);
    }
    ShardRecord rec = AssignShards(Names(n), s, "g");
    std::vector<int64_t> loads(4, 0);
    for (const auto& [name, k] : rec.assignment) loads[static_cast<size_t>(k - 1)] += s.weights[name];
    EXPECT_LE(*std::max_element(loads.begin(), loads.end()) - *std::min_element(loads.begin(), loads.end()), biggest);
  }
}

// A name the weights run did not measure weighs the mean of those it did.
TEST(ShardTest, UnknownWeightsTakeTheMean) {
  ShardSpec spec = *ParseShard("1/2");
  spec.weights = {{"a", 10}, {"b", 30}};  // mean 20
  ShardRecord r = AssignShards({"a", "b", "new"}, spec, "g");
  // b (30) -> 1; new (20) -> 2; a (10) -> 2 (load 20 < 30).
  EXPECT_EQ(ShardOf(r, "b"), 1);
  EXPECT_EQ(ShardOf(r, "new"), 2);
  EXPECT_EQ(ShardOf(r, "a"), 2);
}

TEST(ShardTest, EmptyShardIsAnErrorWithTheFix) {
  ShardSpec spec = *ParseShard("3/3");
  ShardRecord r = AssignShards({"a", "b"}, spec, "g");
  Status s = CheckShardNotEmpty(r, "benchmarks");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("use at most 2 shards"), std::string::npos) << s.message();
  spec.index = 2;
  EXPECT_TRUE(CheckShardNotEmpty(AssignShards({"a", "b"}, spec, "g"), "benchmarks").ok());
}

TEST(ShardTest, GroupLeavesOutKAndWeights) {
  const std::string g = ShardGroup(RunKind::kAb, 4, "abc", "campaign");
  EXPECT_EQ(g, ShardGroup(RunKind::kAb, 4, "abc", "campaign"));
  EXPECT_NE(g, ShardGroup(RunKind::kAb, 3, "abc", "campaign"));
  EXPECT_NE(g, ShardGroup(RunKind::kRun, 4, "abc", "campaign"));
  EXPECT_NE(g, ShardGroup(RunKind::kAb, 4, "abd", "campaign"));
  EXPECT_EQ(g.size(), 64u);
}

}  // namespace
}  // namespace tare::session
