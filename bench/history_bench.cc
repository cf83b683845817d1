// history_bench STORE RUNS SAMPLES_PER_RUN [BENCHMARKS]
// Fills STORE (a new file) with RUNS runs of kind "run" on one host, each with BENCHMARKS
// benchmarks (default 4) of SAMPLES_PER_RUN measured samples; the benchmark BM_Target gets a 10%
// step at run RUNS/2. Everything goes through tare's Store API (one committed transaction per
// sample, as `tare run` writes; each run's summary when it finishes). Then it times the history of
// BM_Target: Store::History with the default limit of 200 runs and with every run, and
// BuildHistory (change points), reporting the median of 7 calls of each. Prints one line per
// figure, and first how long opening the store took (an older store is migrated then).
// STORE may be a postgresql:// URL; RUNS 0 writes nothing and times the history of a store filled
// before (e.g. by `tare push` of a store this program wrote: bench/ingest.sh).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include <fmt/core.h>

#include "compare/history.h"
#include "store/store.h"

using Clock = std::chrono::steady_clock;

static double MedianMs(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: history_bench STORE RUNS SAMPLES_PER_RUN [BENCHMARKS]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int runs = std::atoi(argv[2]), per_run = std::atoi(argv[3]);
  const int benches = argc > 4 ? std::atoi(argv[4]) : 4;
  if (runs > 0 && !tare::store::IsStoreUrl(path) && std::filesystem::exists(path)) {
    std::fprintf(stderr, "history_bench: %s exists; give a new path\n", path.c_str());
    return 2;
  }
  const auto opening = Clock::now();
  auto store = tare::store::Store::Open(path);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    return 1;
  }
  // Opening an older store migrates it (v5 -> v6 summarizes every finished run).
  fmt::print("store open (and any migration): {:.2f} s\n",
             std::chrono::duration<double>(Clock::now() - opening).count());
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0.0, 0.01);
  const auto t0 = Clock::now();
  int64_t stored = 0;
  for (int r = 0; r < runs; ++r) {
    tare::RunRecord rec;
    rec.kind = tare::RunKind::kRun;
    rec.started_unix_ns = 1'700'000'000'000'000'000 + int64_t(r) * 3'600'000'000'000;
    rec.tare_version = "bench";
    rec.fingerprint_digest = "bench-host";
    rec.provenance.branch = "main";
    rec.provenance.commit = fmt::format("{:040x}", r + 1);
    auto id = (*store)->BeginRun(rec);
    if (!id.ok()) return 1;
    for (int b = 0; b < benches; ++b) {
      const std::string name = b == 0 ? "BM_Target" : fmt::format("BM_Other/{}", b);
      auto bid = (*store)->AddBenchmark(*id, {0, "bench::" + name, name, tare::TargetKind::kGbench});
      if (!bid.ok()) return 1;
      const double level = (b == 0 && r >= runs / 2) ? 1100.0 : 1000.0;
      for (int s = 0; s < per_run / benches; ++s) {
        tare::Sample smp;
        smp.seq = s;
        smp.values = {{"gb.real_time_ns", level * (1 + noise(rng))}, {"wall_ns", 2e6 * (1 + noise(rng))}};
        if (!(*store)->AppendSample(*id, *bid, smp).ok()) return 1;
        ++stored;
      }
    }
    if (!(*store)->FinishRun(*id, tare::RunStatus::kComplete, rec.started_unix_ns + 1).ok()) return 1;
  }
  const double fill_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (runs > 0) {
    fmt::print("store: {} runs, {} samples ({} of BM_Target), {:.1f} s to write ({:.0f} samples/s), {:.1f} MB\n", runs,
               stored, stored / benches, fill_s, stored / fill_s,
               tare::store::IsStoreUrl(path) ? 0.0 : std::filesystem::file_size(path) / 1e6);
  }

  auto time_query = [&](int limit, const char* label) {
    std::vector<double> q_ms, b_ms;
    size_t points = 0, steps = 0, values = 0;
    for (int i = 0; i < 7; ++i) {
      const auto a = Clock::now();
      auto h = (*store)->History({"BM_Target", "gb.real_time_ns", "", "bench-host", limit});
      const auto b = Clock::now();
      if (!h.ok()) std::exit(1);
      values = 0;
      std::vector<tare::compare::HistoryInput> in;
      for (auto& p : *h) {
        values += static_cast<size_t>(p.n);
        in.push_back({std::move(p.run), p.n, p.failed, p.median});
      }
      points = in.size();
      auto built = tare::compare::BuildHistory(std::move(in), {});
      const auto c = Clock::now();
      steps = built.steps.size();
      q_ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
      b_ms.push_back(std::chrono::duration<double, std::milli>(c - b).count());
    }
    fmt::print(
        "history {}: {} runs, {} samples summarized, {} change point(s): query {:.1f} ms, change points {:.1f} ms "
        "(median of 7)\n",
        label, points, values, steps, MedianMs(q_ms), MedianMs(b_ms));
  };
  time_query(200, "--limit 200 (default)");
  auto all_runs = (*store)->ListRuns(1 << 30);
  if (!all_runs.ok()) return 1;
  const int stored_runs = static_cast<int>(all_runs->size());
  time_query(stored_runs, fmt::format("--limit {} (every run)", stored_runs).c_str());
  return 0;
}
