#include "session/measurer.h"

#include <chrono>

namespace tare::session {

StatusOr<Measured> SpawnerMeasurer::Measure(const target::TargetSpec& target, const target::Benchmark& bench) {
  Measured m;
  TARE_ASSIGN_OR_RETURN(m.sample, target::MeasureOnce(spawner_, target, bench, options_, &m.unavailable, &m.extras));
  return m;
}

StatusOr<std::vector<Measured>> SpawnerMeasurer::MeasureTogether(const target::TargetSpec& target,
                                                                 const std::vector<target::Benchmark>& benches) {
  std::vector<std::string> unavailable;
  std::vector<target::MeasureExtras> extras;
  TARE_ASSIGN_OR_RETURN(std::vector<Sample> samples,
                        target::MeasureTogether(spawner_, target, benches, options_, &unavailable, &extras));
  std::vector<Measured> out(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    out[i].sample = std::move(samples[i]);
    if (i < extras.size()) out[i].extras = std::move(extras[i]);
  }
  // The shared process's reasons are reported once, with the first benchmark.
  if (!out.empty()) out.front().unavailable = std::move(unavailable);
  return out;
}

bool SpawnerMeasurer::Interrupted() const { return proc::Interrupted(); }

namespace {
class RealClock final : public Clock {
 public:
  int64_t UnixNowNs() const override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};
}  // namespace

const Clock& SystemClock() {
  static const RealClock clock;
  return clock;
}

}  // namespace tare::session
