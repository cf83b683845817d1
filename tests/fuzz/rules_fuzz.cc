// Fuzzes the campaign's rule syntax (src/campaign/rules.h): sanity gates, release bounds and
// quantities, which come from campaign files and --gate/--bound flags. Each must be a value or an
// InvalidArgument, never a crash; a parsed rule has finite numbers.
#include <cmath>
#include <string>

#include "campaign/rules.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::campaign;
  const std::string_view text = tare::fuzz::AsText(data, size);
  if (auto gate = ParseGate(text); gate.ok()) {
    TARE_FUZZ_CHECK(std::isfinite(gate->factor) && std::isfinite(gate->offset));
    (void)ExpandRuleArm(gate->arm, {"base", "head", "hd02", "null"});
    (void)GateLimit(*gate, 1024.0);
  }
  if (auto bound = ParseBound(text); bound.ok()) {
    TARE_FUZZ_CHECK(std::isfinite(bound->limit));
    const double values[] = {3, 1, 2, 5, 4};
    (void)BoundStatistic(bound->stat, values);
    (void)ExpandRuleArm(bound->arm, {"base", "head", "hd02", "null"});
  }
  for (const char* metric : {"wall_ns", "peak_rss_bytes", "instructions", "gb.counter.items"}) {
    if (auto q = ParseQuantity(text, metric); q.ok()) TARE_FUZZ_CHECK(std::isfinite(*q));
  }
  return 0;
}
