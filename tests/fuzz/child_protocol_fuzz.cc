// Fuzzes the runner's side of the tare child protocol (src/target/tare_protocol.h): the result
// lines a tare benchmark binary writes to its result fd, and the shim's TARE_ALLOC_OUT file. The
// child is the program under test, so a line may be anything. Input: the first line is the
// benchmark the runner asked for; the rest is what the child wrote.
#include <cmath>
#include <set>
#include <string>

#include "fuzz_check.h"
#include "target/tare_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::protocol;
  auto [bench, written] = tare::fuzz::SplitFirstLine(tare::fuzz::AsText(data, size));
  (void)HasProtocolMarker(written);
  for (std::string_view line : ResultLines(written)) {
    TARE_FUZZ_CHECK(!line.empty());
    (void)ParseList(line);
    if (auto c = ParseCalibration(line, bench); c.ok()) TARE_FUZZ_CHECK(c->bench == bench);
    if (auto m = ParseMeasurement(line, bench); m.ok()) {
      TARE_FUZZ_CHECK(m->bench == bench);
      // One value per metric name: the store keys a sample's values by it.
      std::set<std::string> names;
      for (const Metric& metric : PerIterationMetrics(*m)) {
        TARE_FUZZ_CHECK(names.insert(metric.name).second);
        TARE_FUZZ_CHECK(std::isfinite(metric.value));
      }
    }
  }
  (void)ParseAllocOut(written, 4242);
  return 0;
}
