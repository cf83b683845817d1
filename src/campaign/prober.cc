#include "campaign/prober.h"

#include "campaign/campaign_setup.h"
#include "session/measurement_setup.h"

namespace tare::campaign {

bool SpawnerProber::TaskClockAvailable(const std::string& workdir, std::string* why) {
  return campaign::TaskClockAvailable(spawner_, workdir, why);
}

Status SpawnerProber::PrepareInstrument(const target::TargetSpec& probe, target::MeasureOptions* options) {
  return session::PrepareInstrument(spawner_, probe, options);
}

StatusOr<std::vector<target::Benchmark>> SpawnerProber::ListBenchmarks(const target::TargetSpec& target,
                                                                       const target::MeasureOptions& options) {
  return target::ListBenchmarks(spawner_, target, options);
}

Status SpawnerProber::FixIterations(const target::TargetSpec& target, const target::MeasureOptions& options,
                                    uint64_t fixed_iterations, target::Benchmark* bench) {
  return session::FixIterations(spawner_, target, options, fixed_iterations, bench);
}

Status SpawnerProber::FixGbenchWork(const target::TargetSpec& target, const target::MeasureOptions& options,
                                    int64_t min_time_ns, target::Benchmark* bench) {
  return session::FixGbenchWork(spawner_, target, options, min_time_ns, bench);
}

std::unique_ptr<session::Measurer> SpawnerProber::MakeMeasurer(const target::MeasureOptions& options) {
  return std::make_unique<session::SpawnerMeasurer>(spawner_, options);
}

namespace {

// A SpawnerMeasurer that owns its spawn helper.
class OwnSpawnerMeasurer final : public session::Measurer {
 public:
  OwnSpawnerMeasurer(std::unique_ptr<proc::Spawner> spawner, const target::MeasureOptions& options)
      : spawner_(std::move(spawner)), measurer_(*spawner_, options) {}
  StatusOr<session::Measured> Measure(const target::TargetSpec& target, const target::Benchmark& bench) override {
    return measurer_.Measure(target, bench);
  }
  StatusOr<std::vector<session::Measured>> MeasureTogether(const target::TargetSpec& target,
                                                           const std::vector<target::Benchmark>& benches) override {
    return measurer_.MeasureTogether(target, benches);
  }
  bool Interrupted() const override { return measurer_.Interrupted(); }

 private:
  std::unique_ptr<proc::Spawner> spawner_;
  session::SpawnerMeasurer measurer_;
};

}  // namespace

std::unique_ptr<session::Measurer> SpawnerProber::MakeOwnMeasurer(const target::MeasureOptions& options) {
  auto spawner = proc::Spawner::Start();
  if (!spawner.ok()) return nullptr;  // one thread, then
  return std::make_unique<OwnSpawnerMeasurer>(std::move(*spawner), options);
}

}  // namespace tare::campaign
