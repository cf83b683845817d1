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

}  // namespace tare::campaign
