#include "session/measurer.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace tare::session {

SpawnerMeasurer::SpawnerMeasurer(proc::Spawner& spawner, target::MeasureOptions options)
    : spawner_(spawner), options_(std::move(options)) {
  const char* overlap = std::getenv("TARE_OVERLAP_STORE");
  overlap_ = proc::CpusAvailable() >= 2 && !(overlap != nullptr && std::strcmp(overlap, "0") == 0);
}

StatusOr<Measured> SpawnerMeasurer::Measure(const target::TargetSpec& target,
                                            const target::Benchmark& bench) {
  return MeasureWhile(target, bench, {});
}

StatusOr<Measured> SpawnerMeasurer::MeasureWhile(const target::TargetSpec& target, const target::Benchmark& bench,
                                                 const proc::WhileRunning& while_running) {
  if (while_running && !overlap_) TARE_RETURN_IF_ERROR(while_running());
  Measured m;
  TARE_ASSIGN_OR_RETURN(m.sample, target::MeasureOnce(spawner_, target, bench, options_, &m.unavailable,
                                                      &m.extras, overlap_ ? while_running : proc::WhileRunning{}));
  return m;
}

StatusOr<std::vector<Measured>> SpawnerMeasurer::MeasureTogether(
    const target::TargetSpec& target, const std::vector<target::Benchmark>& benches) {
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
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};
}  // namespace

const Clock& SystemClock() {
  static const RealClock clock;
  return clock;
}

}  // namespace tare::session
