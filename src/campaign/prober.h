// What a campaign asks of the world besides its store: whether the host counts CPU time, the
// instrument's set-up, the benchmarks an arm lists, the work of one sample fixed on base, and the
// measurer that takes the samples. The seam that lets tests drive the whole campaign engine —
// Prepare, looks, the budget, gates, resume, the exact plan, the cross-check — in-process with a
// scripted world (as ninja's FakeCommandRunner; src/campaign/campaign_engine_test.cc), while
// tests/e2e/ab stays the proof on real processes. The real one, SpawnerProber, runs the arms'
// executables through the spawn helper.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "proc/spawner.h"
#include "session/measurer.h"
#include "target/measure.h"

namespace tare::campaign {

class Prober {
 public:
  virtual ~Prober() = default;
  // Whether a child's perf task-clock (CPU time) can be counted here; `why` when it cannot.
  virtual bool TaskClockAvailable(const std::string& workdir, std::string* why) = 0;
  // session::PrepareInstrument: what `options->instrument` needs, asked of `probe`.
  virtual Status PrepareInstrument(const target::TargetSpec& probe, target::MeasureOptions* options) = 0;
  // target::ListBenchmarks: the benchmarks of a Google Benchmark or tare binary.
  virtual StatusOr<std::vector<target::Benchmark>> ListBenchmarks(const target::TargetSpec& target,
                                                                  const target::MeasureOptions& options) = 0;
  // session::FixIterations and session::FixGbenchWork: the work of every sample, fixed on base.
  virtual Status FixIterations(const target::TargetSpec& target, const target::MeasureOptions& options,
                               uint64_t fixed_iterations, target::Benchmark* bench) = 0;
  virtual Status FixGbenchWork(const target::TargetSpec& target, const target::MeasureOptions& options,
                               int64_t min_time_ns, target::Benchmark* bench) = 0;
  // What takes the samples (a cohort's, or the cross-check's under sim).
  virtual std::unique_ptr<session::Measurer> MakeMeasurer(const target::MeasureOptions& options) = 0;
  // A measurer with a spawn helper of its own, for a second thread (the work tier runs its
  // valgrind processes two at a time: cohort_work.cc); nullptr where there is none (one thread).
  virtual std::unique_ptr<session::Measurer> MakeOwnMeasurer(const target::MeasureOptions&) { return nullptr; }
};

// The real world: fresh processes through the spawn helper, which must outlive the prober.
class SpawnerProber final : public Prober {
 public:
  explicit SpawnerProber(proc::Spawner& spawner) : spawner_(spawner) {}
  bool TaskClockAvailable(const std::string& workdir, std::string* why) override;
  Status PrepareInstrument(const target::TargetSpec& probe, target::MeasureOptions* options) override;
  StatusOr<std::vector<target::Benchmark>> ListBenchmarks(const target::TargetSpec& target,
                                                          const target::MeasureOptions& options) override;
  Status FixIterations(const target::TargetSpec& target, const target::MeasureOptions& options,
                       uint64_t fixed_iterations, target::Benchmark* bench) override;
  Status FixGbenchWork(const target::TargetSpec& target, const target::MeasureOptions& options, int64_t min_time_ns,
                       target::Benchmark* bench) override;
  std::unique_ptr<session::Measurer> MakeMeasurer(const target::MeasureOptions& options) override;
  std::unique_ptr<session::Measurer> MakeOwnMeasurer(const target::MeasureOptions& options) override;

 private:
  proc::Spawner& spawner_;
};

}  // namespace tare::campaign
