// Unit tests of the pieces that need no process: argument expansion and names (checked against
// Google Benchmark 1.7.1's rules, which gbench_compat_test.cc also checks against the real
// library's --benchmark_list_tests), duplicate handling, nearest-rank quantiles, the JSON writer,
// and that the example opening tare.hpp is the compiled one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lib/json_line.h"
#include "lib/registry.h"
#include "lib/run_context.h"

namespace tare::internal {
namespace {

using V = std::vector<int64_t>;

TEST(ExpandRange, PowersOfTheMultiplierBetweenTheBounds) {
  EXPECT_EQ(ExpandRange(8, 8 << 10, 8), (V{8, 64, 512, 4096, 8192}));
  EXPECT_EQ(ExpandRange(8, 8 << 10, 2), (V{8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}));
  EXPECT_EQ(ExpandRange(1 << 10, 8 << 10, 8), (V{1024, 4096, 8192}));
  EXPECT_EQ(ExpandRange(5, 5, 8), (V{5}));
  EXPECT_EQ(ExpandRange(5, 6, 8), (V{5, 6}));
  EXPECT_EQ(ExpandRange(0, 100, 10), (V{0, 1, 10, 100}));
  // Negative bounds: negated powers, then 0 (Google Benchmark issue #762), then powers.
  EXPECT_EQ(ExpandRange(-100, 100, 10), (V{-100, -10, -1, 0, 1, 10, 100}));
  EXPECT_EQ(ExpandRange(-64, -1, 2), (V{-64, -32, -16, -8, -4, -2, -1}));
}

TEST(ExpandDenseRange, StepsUpToTheLimitInclusive) {
  EXPECT_EQ(ExpandDenseRange(0, 1024, 128), (V{0, 128, 256, 384, 512, 640, 768, 896, 1024}));
  EXPECT_EQ(ExpandDenseRange(1, 10, 4), (V{1, 5, 9}));
  EXPECT_EQ(ExpandDenseRange(3, 3, 1), (V{3}));
}

TEST(CartesianProduct, FirstListVariesFastest) {
  EXPECT_EQ(CartesianProduct({{1, 2, 3}, {20, 40}}),
            (std::vector<V>{{1, 20}, {2, 20}, {3, 20}, {1, 40}, {2, 40}, {3, 40}}));
  EXPECT_TRUE(CartesianProduct({{1, 2}, {}}).empty());
}

void Noop(State&) {}
void OtherNoop(State&) {}

TEST(Registry, NamesParametersAndArgNames) {
  Registry registry;
  Family* f = new Family("fill", nullptr, nullptr);
  f->arg_names({"n", ""})->args({64, 3})->arg(7);
  registry.Add(f);
  Family* g = new Family("plain", nullptr, nullptr);
  registry.Add(g->set_name_suffixes({"min_time:0.500", "real_time"}));
  std::vector<Instance> instances;
  std::string error;
  ASSERT_TRUE(registry.Instances(&instances, &error)) << error;
  ASSERT_EQ(instances.size(), 3u);
  EXPECT_EQ(instances[0].name, "fill/n:64/3");
  EXPECT_EQ(instances[0].args, (V{64, 3}));
  EXPECT_EQ(instances[1].name, "fill/n:7");
  EXPECT_EQ(instances[2].name, "plain/min_time:0.500/real_time");
  EXPECT_TRUE(instances[2].args.empty());
}

TEST(Registry, SameFunctionTwiceCollapsesDifferentFunctionsAreAnError) {
  Registry same;
  same.Add((new Family("f", reinterpret_cast<const void*>(&Noop), nullptr))->range(8, 64));
  same.Add((new Family("f", reinterpret_cast<const void*>(&Noop), nullptr))->range(8, 64, 2));
  std::vector<Instance> instances;
  std::string error;
  ASSERT_TRUE(same.Instances(&instances, &error)) << error;
  std::vector<std::string> names;
  for (const auto& i : instances) names.push_back(i.name);
  EXPECT_EQ(names, (std::vector<std::string>{"f/8", "f/64", "f/16", "f/32"}));

  Registry clash;
  clash.Add((new Family("f", reinterpret_cast<const void*>(&Noop), nullptr))->arg(1));
  clash.Add((new Family("f", reinterpret_cast<const void*>(&OtherNoop), nullptr))->arg(1));
  EXPECT_FALSE(clash.Instances(&instances, &error));
  EXPECT_NE(error.find("'f/1' is registered twice by different functions"), std::string::npos) << error;
}

TEST(NearestRank, RankIsCeilingOfQTimesN) {
  std::vector<uint64_t> v;
  for (uint64_t i = 1; i <= 100; ++i) v.push_back(i);
  EXPECT_EQ(NearestRank(v, 0.50), 50u);
  EXPECT_EQ(NearestRank(v, 0.95), 95u);
  EXPECT_EQ(NearestRank(v, 0.99), 99u);
  EXPECT_EQ(NearestRank({7}, 0.99), 7u);
  EXPECT_EQ(NearestRank({1, 2, 3}, 0.5), 2u);  // ceil(1.5) = 2
  EXPECT_EQ(NearestRank({}, 0.5), 0u);
}

TEST(JsonLine, WritesValidCompactJson) {
  JsonLine j;
  j.BeginObject().Key("a").Uint(18446744073709551615u).Key("b").Int(-3);
  j.Key("c").BeginArray().Double(0.5).Double(1024).Double(1e20).EndArray();
  j.Key("d").String("quote\" backslash\\ newline\n tab\t bell\x07").Key("e").Bool(true);
  j.Key("f").BeginObject().EndObject().EndObject();
  EXPECT_EQ(j.Line(),
            "{\"a\":18446744073709551615,\"b\":-3,\"c\":[0.5,1024,1e+20],"
            "\"d\":\"quote\\\" backslash\\\\ newline\\n tab\\t bell\\u0007\",\"e\":true,"
            "\"f\":{}}\n");
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(HeaderExample, IsTheCompiledExample) {
  const char* root = std::getenv("TARE_SOURCE_DIR");
  ASSERT_NE(root, nullptr);
  const std::string header = Slurp(std::string(root) + "/include/tare/tare.hpp");
  const std::string example = Slurp(std::string(root) + "/examples/tare_basic/tare_basic.cc");
  const size_t begin = header.find("// ---- example begin\n");
  const size_t end = header.find("// ---- example end\n");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  std::istringstream lines(header.substr(begin, end - begin));
  std::string line, uncommented;
  std::getline(lines, line);  // the marker
  while (std::getline(lines, line)) {
    if (line.rfind("// ", 0) == 0) {
      uncommented += line.substr(3) + "\n";
    } else if (line == "//") {
      uncommented += "\n";
    } else {
      FAIL() << "not a comment line in the example: " << line;
    }
  }
  EXPECT_EQ(uncommented, example);
}

}  // namespace
}  // namespace tare::internal
