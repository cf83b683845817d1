// memory_store STORE SAMPLES [BENCHMARKS] [SMALL_SAMPLES]
// Adds to STORE (a tare store: the latest run in it, if any, lends its host fingerprint) two runs
// of kind "run" of the same benchmarks, for bench/memory_scale.sh (issue 48, item 7): a big one of
// SAMPLES measured samples and, after it, a small one of SMALL_SAMPLES (default 1,000) to compare
// it with. Each sample carries the eight process metrics `tare run` stores for a command (wall
// and CPU times, peak RSS, faults, context switches). BENCHMARKS (default 4) benchmarks share the
// samples round-robin, as the cells of `tare run 'a' 'b' ...` do.
// Written through tare's own Store API, in transactions of 10,000 samples (Store::AppendSamples,
// as `tare merge` writes), so the store is what tare itself reads back; the runs are finished
// (their history summaries written) as a run of `tare run` is.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "store/store.h"

namespace {

// The process metrics of a command's sample (model/metric.cc), and a typical value of each.
struct Level {
  const char* name;
  double value;
};
constexpr Level kLevels[] = {{"wall_ns", 2.0e6},
                             {"user_ns", 1.2e6},
                             {"sys_ns", 6.0e5},
                             {"peak_rss_bytes", 3.5e6},
                             {"minor_faults", 140},
                             {"major_faults", 0},
                             {"voluntary_ctx_switches", 2},
                             {"involuntary_ctx_switches", 1}};

int Fail(const tare::Status& s) {
  std::fprintf(stderr, "memory_store: %s\n", s.message().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: memory_store STORE SAMPLES [BENCHMARKS] [SMALL_SAMPLES]\n");
    return 2;
  }
  const std::string path = argv[1];
  const long long big = std::atoll(argv[2]);
  const int benches = argc > 3 ? std::atoi(argv[3]) : 4;
  const long long small = argc > 4 ? std::atoll(argv[4]) : 1000;
  if (big <= 0 || benches <= 0 || small <= 0) {
    std::fprintf(stderr, "memory_store: SAMPLES, BENCHMARKS and SMALL_SAMPLES must be positive\n");
    return 2;
  }
  auto store = tare::store::Store::Open(path);
  if (!store.ok()) return Fail(store.status());
  tare::store::Store& s = **store;
  std::string fingerprint_json, digest;
  if (auto runs = s.ListRuns(1); runs.ok() && !runs->empty()) {
    auto latest = s.LoadRun(runs->front().id);
    if (!latest.ok()) return Fail(latest.status());
    fingerprint_json = latest->run.fingerprint_json;
    digest = latest->run.fingerprint_digest;
  }
  std::mt19937_64 rng(48);
  std::lognormal_distribution<double> noise(0.0, 0.02);
  for (int r = 0; r < 2; ++r) {
    const long long samples = r == 0 ? big : small;
    tare::RunRecord rec;
    rec.kind = tare::RunKind::kRun;
    rec.started_unix_ns = 1'800'000'000'000'000'000 + int64_t(r) * 3'600'000'000'000;
    rec.tare_version = "bench";
    rec.fingerprint_json = fingerprint_json;
    rec.fingerprint_digest = digest;
    rec.provenance.branch = "main";
    rec.provenance.commit = fmt::format("{:040x}", r + 1);
    auto id = s.BeginRun(rec);
    if (!id.ok()) return Fail(id.status());
    std::vector<int64_t> bench_ids;
    for (int b = 0; b < benches; ++b) {
      const std::string name = fmt::format("./work --case {}", b);
      auto bid = s.AddBenchmark(*id, {0, "command::" + name, name, tare::TargetKind::kCommand});
      if (!bid.ok()) return Fail(bid.status());
      bench_ids.push_back(*bid);
    }
    std::vector<tare::StoredSample> batch;
    auto flush = [&]() -> tare::Status {
      tare::Status st = s.InTransaction([&]() -> tare::Status {
        auto ids = s.AppendSamples(*id, batch);
        return ids.ok() ? tare::Status::Ok() : ids.status();
      });
      batch.clear();
      return st;
    };
    for (long long i = 0; i < samples; ++i) {
      tare::StoredSample x;
      x.benchmark_id = bench_ids[static_cast<size_t>(i % benches)];
      x.sample.seq = i;
      x.sample.block = i / benches;
      x.sample.started_unix_ns = rec.started_unix_ns + i * 3'000'000;
      x.sample.ended_unix_ns = x.sample.started_unix_ns + 2'000'000;
      for (const Level& l : kLevels) x.sample.values[l.name] = l.value * noise(rng);
      batch.push_back(std::move(x));
      if (batch.size() == 10000) {
        if (tare::Status st = flush(); !st.ok()) return Fail(st);
      }
    }
    if (!batch.empty()) {
      if (tare::Status st = flush(); !st.ok()) return Fail(st);
    }
    if (auto st = s.FinishRun(*id, tare::RunStatus::kComplete, rec.started_unix_ns + samples * 3'000'000); !st.ok()) {
      return Fail(st);
    }
    fmt::print("run {}: {} samples of {} benchmarks\n", *id, samples, benches);
  }
  return 0;
}
