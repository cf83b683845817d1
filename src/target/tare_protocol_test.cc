// The runner-side codec: request environments, result parsing (good and malformed lines),
// metric mapping, the shim's whole-process report, and a round trip through real benchmark
// binaries (examples/tare_basic, examples/allocator_ripple) started with posix_spawn.
#include "target/tare_protocol.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "lib/testing/child_process.h"

namespace tare::protocol {
namespace {

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(ChildEnv, ListCalibrateMeasure) {
  Request r;
  r.mode = Mode::kList;
  auto env = ChildEnv(r);
  ASSERT_TRUE(env.ok()) << env.status().message();
  EXPECT_EQ(*env, (std::vector<std::string>{"TARE_CHILD=1", "TARE_PROTOCOL=1", "TARE_MODE=list", "TARE_INSTRUMENT=wall",
                                            "TARE_RESULT_FD=3", "LD_BIND_NOW=1"}));
  r.mode = Mode::kCalibrate;
  r.benches = {"sort/64"};
  r.calibrate_ns = 50000000;
  r.instrument = Instrument::kSim;
  r.result_fd = 7;
  env = ChildEnv(r);
  ASSERT_TRUE(env.ok());
  EXPECT_TRUE(Has(*env, "TARE_MODE=calibrate"));
  EXPECT_TRUE(Has(*env, "TARE_INSTRUMENT=sim"));
  EXPECT_TRUE(Has(*env, "TARE_RESULT_FD=7"));
  EXPECT_TRUE(Has(*env, "TARE_BENCH=sort/64"));
  EXPECT_TRUE(Has(*env, "TARE_CALIBRATE_NS=50000000"));
  r.mode = Mode::kMeasure;
  r.instrument = Instrument::kMem;
  r.benches = {"a/1", "a/2"};
  r.iters = 1000;
  env = ChildEnv(r);
  ASSERT_TRUE(env.ok());
  EXPECT_TRUE(Has(*env, "TARE_BENCH=a/1\na/2"));
  EXPECT_TRUE(Has(*env, "TARE_ITERS=1000"));
  EXPECT_TRUE(Has(*env, "TARE_INSTRUMENT=mem"));
}

TEST(ChildEnv, RefusesWhatTheProtocolCannotExpress) {
  Request r;
  r.benches = {"x"};
  r.iters = 0;
  EXPECT_EQ(ChildEnv(r).status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(ChildEnv(r).status().message().find("'x'"), std::string::npos);
  r.iters = 1;
  r.benches = {"two\nlines"};
  EXPECT_FALSE(ChildEnv(r).ok());
  r.benches = {};
  EXPECT_FALSE(ChildEnv(r).ok());
  r.mode = Mode::kCalibrate;
  r.benches = {"x"};
  EXPECT_FALSE(ChildEnv(r).ok());  // calibrate_ns = 0
}

TEST(Parse, List) {
  auto list = ParseList(R"({"protocol":1,"benchmarks":[{"name":"sort/1024","family":"sort","args":[1024]},)"
                        R"({"name":"h/n:1/-2","family":"h","args":[1,-2],"records_latency":true},)"
                        R"({"name":"plain","family":"plain","args":[]}]})"
                        "\n");
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].name, "sort/1024");
  EXPECT_EQ((*list)[0].args, std::vector<int64_t>{1024});
  EXPECT_FALSE((*list)[0].records_latency);
  EXPECT_EQ((*list)[1].args, (std::vector<int64_t>{1, -2}));
  EXPECT_TRUE((*list)[1].records_latency);
  EXPECT_TRUE((*list)[2].args.empty());
}

TEST(Parse, Measurement) {
  auto m = ParseMeasurement(R"({"protocol":1,"bench":"sort/1024","iters":1000,"window":{"wall_ns":5000000,)"
                            R"("cpu_ns":4000000},"counters":{"items_processed":1024000,"bytes_processed":2048000},)"
                            R"("gauges":{"size":3},"latency_ns":{"p50":4000,"p95":6000,"p99":9000,"max":20000},)"
                            R"("alloc":{"allocs":3000,"frees":3000,"bytes_allocated":1064000,"peak_live_bytes":1064},)"
                            R"("future_field":"ignored"})",
                            "sort/1024");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->iters, 1000u);
  EXPECT_EQ(m->wall_ns, 5000000u);
  EXPECT_EQ(m->cpu_ns, 4000000u);
  EXPECT_EQ(m->counters.at("items_processed"), 1024000);
  EXPECT_EQ(m->gauges.at("size"), 3);
  ASSERT_TRUE(m->latency);
  EXPECT_EQ(m->latency->p99_ns, 9000u);
  ASSERT_TRUE(m->alloc);
  EXPECT_EQ(m->alloc->peak_live_bytes, 1064u);

  std::map<std::string, std::pair<double, std::string>> metrics;
  for (const auto& metric : PerIterationMetrics(*m)) {
    EXPECT_EQ(metrics.count(metric.name), 0u) << metric.name;
    metrics[metric.name] = {metric.value, metric.unit};
  }
  using P = std::pair<double, std::string>;
  EXPECT_EQ(metrics.at("bench.wall_ns"), P(5000, "ns"));
  EXPECT_EQ(metrics.at("bench.cpu_ns"), P(4000, "ns"));
  EXPECT_EQ(metrics.at("bench.items_processed"), P(1024, "count"));
  EXPECT_EQ(metrics.at("bench.bytes_processed"), P(2048, "bytes"));
  EXPECT_EQ(metrics.at("bench.size"), P(3, "count"));
  EXPECT_EQ(metrics.at("bench.latency_p50_ns"), P(4000, "ns"));
  EXPECT_EQ(metrics.at("bench.latency_p95_ns"), P(6000, "ns"));
  EXPECT_EQ(metrics.at("bench.latency_p99_ns"), P(9000, "ns"));
  EXPECT_EQ(metrics.at("bench.latency_max_ns"), P(20000, "ns"));
  EXPECT_EQ(metrics.at("mem.allocs"), P(3, "count"));
  EXPECT_EQ(metrics.at("mem.frees"), P(3, "count"));
  EXPECT_EQ(metrics.at("mem.bytes_allocated"), P(1064, "bytes"));
  EXPECT_EQ(metrics.at("mem.peak_live_bytes"), P(1064, "bytes"));  // not divided
  EXPECT_EQ(metrics.size(), 13u);
}

TEST(Parse, UserNamesThatCollideWithBuiltInsAreMoved) {
  auto m = ParseMeasurement(R"({"protocol":1,"bench":"b","iters":2,"window":{"wall_ns":10,"cpu_ns":8},)"
                            R"("counters":{"wall_ns":6},"gauges":{"latency_p99_ns":1}})",
                            "b");
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::map<std::string, double> metrics;
  for (const auto& metric : PerIterationMetrics(*m)) metrics[metric.name] = metric.value;
  EXPECT_EQ(metrics.at("bench.wall_ns"), 5);
  EXPECT_EQ(metrics.at("bench.user.wall_ns"), 3);
  EXPECT_EQ(metrics.at("bench.user.latency_p99_ns"), 1);
}

TEST(Parse, Calibration) {
  auto c = ParseCalibration(R"({"protocol":1,"bench":"x","iters":4096,"window_ns":13520163})", "x");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->iters, 4096u);
  EXPECT_EQ(c->window_ns, 13520163u);
  EXPECT_FALSE(c->capped);
  c = ParseCalibration(R"({"protocol":1,"bench":"x","iters":1073741824,"window_ns":9,"capped":true})", "x");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->capped);
}

TEST(Parse, ChildErrorsCarryTheChildsMessageAndTheBenchmark) {
  auto m = ParseMeasurement(R"({"protocol":1,"bench":"io/4","error":"Failed to read data!"})", "io/4");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(m.status().message(), "benchmark 'io/4' failed in the child: Failed to read data!");
  auto c = ParseCalibration(R"({"protocol":1,"error":"TARE_MODE is 'x'"})", "io/4");
  EXPECT_EQ(c.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(c.status().message().find("io/4"), std::string::npos);
  auto l = ParseList(R"({"protocol":1,"error":"benchmark name 'f/1' is registered twice"})");
  EXPECT_EQ(l.status().code(), StatusCode::kFailedPrecondition);
  // A newer protocol is not malformed data: it needs a rebuild.
  auto v2 = ParseMeasurement(R"({"protocol":2,"bench":"b","iters":1})", "b");
  EXPECT_EQ(v2.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(v2.status().message().find("speaks tare child protocol 2"), std::string::npos);
}

TEST(Parse, MalformedMeasurementLinesAreDataLossNamingTheBenchmark) {
  const std::string ok_window = R"("window":{"wall_ns":10,"cpu_ns":8},"counters":{})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "not a JSON object"},
      {"garbage", "not a JSON object"},
      {"[1,2]", "not a JSON object"},
      {R"({"protocol":1,"bench":"b","iters":1,)", "not a JSON object"},  // truncated
      {R"({"bench":"b","iters":1,)" + ok_window + "}", "no \"protocol\""},
      {R"({"protocol":"1","bench":"b","iters":1,)" + ok_window + "}", "no \"protocol\""},
      {R"({"protocol":1,"iters":1,)" + ok_window + "}", "no \"bench\""},
      {R"({"protocol":1,"bench":"other","iters":1,)" + ok_window + "}", "is for benchmark 'other'"},
      {R"({"protocol":1,"bench":"b",)" + ok_window + "}", "no \"iters\""},
      {R"({"protocol":1,"bench":"b","iters":0,)" + ok_window + "}", "\"iters\" is 0"},
      {R"({"protocol":1,"bench":"b","iters":-5,)" + ok_window + "}", "non-negative integer"},
      {R"({"protocol":1,"bench":"b","iters":1.5,)" + ok_window + "}", "non-negative integer"},
      {R"({"protocol":1,"bench":"b","iters":1,"counters":{}})", "no \"window\""},
      {R"({"protocol":1,"bench":"b","iters":1,"window":{"wall_ns":10},"counters":{}})", "no \"cpu_ns\""},
      {R"({"protocol":1,"bench":"b","iters":1,"window":{"wall_ns":10,"cpu_ns":8}})", "no \"counters\""},
      {R"({"protocol":1,"bench":"b","iters":1,"window":{"wall_ns":10,"cpu_ns":8},"counters":{"x":"7"}})",
       "counters 'x' must be a finite number"},
      {R"({"protocol":1,"bench":"b","iters":1,)" + ok_window + R"(,"gauges":[1]})", "\"gauges\" must be an object"},
      {R"({"protocol":1,"bench":"b","iters":1,"window":{"wall_ns":1,"cpu_ns":1},"counters":{"x":1},"gauges":{"x":2}})",
       "both a counter and a gauge"},
      {R"({"protocol":1,"bench":"b","iters":1,)" + ok_window + R"(,"latency_ns":{"p50":9,"p95":5,"p99":10,"max":11}})",
       "not in order"},
      {R"({"protocol":1,"bench":"b","iters":1,)" + ok_window + R"(,"latency_ns":{"p50":1}})", "no \"p95\""},
      {R"({"protocol":1,"bench":"b","iters":1,)" + ok_window + R"(,"alloc":{"allocs":1}})", "no \"frees\""},
      {"{\"protocol\":1}\n{\"protocol\":1}", "several"},
  };
  for (const auto& [line, fragment] : cases) {
    auto m = ParseMeasurement(line, "b");
    ASSERT_FALSE(m.ok()) << line;
    EXPECT_EQ(m.status().code(), StatusCode::kDataLoss) << line << ": " << m.status().message();
    EXPECT_NE(m.status().message().find(fragment), std::string::npos) << line << ": " << m.status().message();
    EXPECT_NE(m.status().message().find("'b'"), std::string::npos) << m.status().message();
  }
}

TEST(Parse, MalformedListsAreDataLoss) {
  for (const std::string line :
       {R"({"protocol":1})", R"({"protocol":1,"benchmarks":[{"family":"f","args":[]}]})",
        R"({"protocol":1,"benchmarks":[{"name":"a","family":"f","args":[]},{"name":"a","family":"f","args":[]}]})",
        R"({"protocol":1,"benchmarks":[{"name":"a","family":"f","args":[1.5]}]})",
        R"({"protocol":1,"benchmarks":[{"name":"a","args":[]}]})"}) {
    auto l = ParseList(line);
    EXPECT_EQ(l.status().code(), StatusCode::kDataLoss) << line;
  }
}

TEST(ResultLines, SplitsAndSkipsEmptyLines) {
  EXPECT_EQ(ResultLines("a\nb\r\n\nc"), (std::vector<std::string_view>{"a", "b", "c"}));
  EXPECT_TRUE(ResultLines("").empty());
}

TEST(AllocOut, PicksTheLineOfThePid) {
  const std::string text =
      "{\"pid\":10,\"allocs\":1,\"frees\":1,\"bytes_allocated\":100,\"peak_live_bytes\":104}\n"
      "{\"pid\":9,\"allocs\":12,\"frees\":11,\"bytes_allocated\":6280,\"peak_live_bytes\":6400}\n";
  auto f = ParseAllocOut(text, 9);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->allocs, 12u);
  EXPECT_EQ(f->frees, 11u);
  EXPECT_EQ(f->bytes_allocated, 6280u);
  EXPECT_EQ(f->peak_live_bytes, 6400u);
  EXPECT_EQ(ParseAllocOut(text, 11).status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(ParseAllocOut("oops\n", 9).status().code(), StatusCode::kDataLoss);
}

TEST(Marker, IsTheLibrarysAndNotInThisBinaryLiterally) {
  // Compared in lower case: the literal itself must not appear in this test binary.
  std::string lower = ProtocolMarker();
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char ch) { return char(std::tolower(ch)); });
  EXPECT_EQ(lower, "tare_child_protocol_v1");
  EXPECT_TRUE(HasProtocolMarker(testing::ReadFile(TARE_BASIC_PATH)));
  EXPECT_FALSE(HasProtocolMarker(testing::ReadFile("/proc/self/exe")));
}

TEST(AllocShimCandidates, EnvThenInstallThenBuildTree) {
  EXPECT_EQ(AllocShimCandidates("/opt/x.so", "/usr/bin"),
            (std::vector<std::string>{"/opt/x.so", "/usr/bin/../lib/tare/libtare_alloc.so",
                                      "/usr/bin/src/lib/libtare_alloc.so"}));
  EXPECT_EQ(AllocShimCandidates("", "/b").size(), 2u);
}

// ---- round trip through real binaries ---------------------------------------------------------

std::map<std::string, std::string> AsMap(const std::vector<std::string>& env) {
  std::map<std::string, std::string> m;
  for (const auto& kv : env) m[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
  return m;
}

testing::ChildOutput RunBinary(const std::string& binary, const Request& r,
                               std::map<std::string, std::string> extra = {}) {
  auto env = ChildEnv(r);
  EXPECT_TRUE(env.ok()) << env.status().message();
  auto m = AsMap(*env);
  m.insert(extra.begin(), extra.end());
  return testing::RunChild({binary}, m, r.result_fd);
}

TEST(RoundTrip, ListCalibrateMeasureAgainstTheBasicExample) {
  Request r;
  r.mode = Mode::kList;
  auto out = RunBinary(TARE_BASIC_PATH, r);
  ASSERT_EQ(out.exit_status, 0) << out.err;
  auto list = ParseList(ResultLines(out.result).at(0));
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->size(), 7u);
  EXPECT_EQ((*list)[3].name, "hash_lookup/n:1000/stride:7");
  EXPECT_EQ((*list)[3].family, "hash_lookup");
  EXPECT_EQ((*list)[3].args, (std::vector<int64_t>{1000, 7}));
  EXPECT_TRUE((*list)[3].records_latency);

  r.mode = Mode::kCalibrate;
  r.benches = {"sort_ints/64"};
  r.calibrate_ns = 2000000;
  out = RunBinary(TARE_BASIC_PATH, r);
  ASSERT_EQ(out.exit_status, 0) << out.err;
  auto cal = ParseCalibration(ResultLines(out.result).at(0), "sort_ints/64");
  ASSERT_TRUE(cal.ok()) << cal.status().message();
  EXPECT_GE(cal->window_ns, 2000000u);

  // Every listed benchmark, measured with the calibrated count, in one fresh process each.
  r.mode = Mode::kMeasure;
  r.iters = cal->iters;
  for (const auto& b : *list) {
    r.benches = {b.name};
    r.result_fd = 5;  // any fd works
    out = RunBinary(TARE_BASIC_PATH, r);
    ASSERT_EQ(out.exit_status, 0) << out.err;
    auto m = ParseMeasurement(ResultLines(out.result).at(0), b.name);
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_EQ(m->iters, cal->iters);
    EXPECT_EQ(m->latency.has_value(), b.records_latency) << b.name;
    if (b.family == "sort_ints") {
      double items = 0;
      for (const auto& metric : PerIterationMetrics(*m)) {
        if (metric.name == "bench.items_processed") items = metric.value;
      }
      EXPECT_EQ(items, double(b.args[0]));
    }
  }
}

TEST(RoundTrip, MemMeasurementAndOneProcessRuns) {
  Request r;
  r.mode = Mode::kMeasure;
  r.instrument = Instrument::kMem;
  r.benches = {"zeroed_buffer/1", "zeroed_buffer/2", "zeroed_buffer/3"};
  r.iters = 4;
  auto out = RunBinary(RIPPLE_PATH, r, {{"LD_PRELOAD", ALLOC_SHIM_PATH}});
  ASSERT_EQ(out.exit_status, 0) << out.err;
  auto lines = ResultLines(out.result);
  ASSERT_EQ(lines.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    auto m = ParseMeasurement(lines[i], r.benches[i]);
    ASSERT_TRUE(m.ok()) << m.status().message();
    ASSERT_TRUE(m->alloc);
    EXPECT_EQ(m->alloc->allocs, 4u);
    EXPECT_EQ(m->alloc->frees, 4u);
    EXPECT_EQ(m->alloc->bytes_allocated, 4u * (4u << 20));
    EXPECT_GE(m->alloc->peak_live_bytes, 4u << 20);
  }
  // The line order is the request order: parsing line 0 as benchmark 2 is caught.
  EXPECT_EQ(ParseMeasurement(lines[0], "zeroed_buffer/2").status().code(), StatusCode::kDataLoss);

  // An unknown name: the child's error, through the codec.
  r.benches = {"zeroed_buffer/9"};
  out = RunBinary(RIPPLE_PATH, r, {{"LD_PRELOAD", ALLOC_SHIM_PATH}});
  EXPECT_EQ(out.exit_status, 3);
  auto m = ParseMeasurement(ResultLines(out.result).at(0), "zeroed_buffer/9");
  EXPECT_EQ(m.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(m.status().message().find("no benchmark named 'zeroed_buffer/9'"), std::string::npos);
}

}  // namespace
}  // namespace tare::protocol
