// Fuzzes the reader of tare.toml's [compare] table (src/compare/thresholds.h): thresholds and
// ignore patterns from the user's repository, read by `tare compare`, `tare report --compare` and
// `tare variance`. Malformed TOML, unknown keys, wrongly typed values and bad patterns must each
// be an error naming the file — never an exception or a crash — and a config that reads gives a
// threshold in range for any benchmark.
#include <cmath>
#include <string>

#include "compare/thresholds.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::compare;
  auto [bench, text] = tare::fuzz::SplitFirstLine(tare::fuzz::AsText(data, size));
  auto config = ParseCompareConfig(std::string(text), "tare.toml");
  if (!config.ok()) {
    TARE_FUZZ_CHECK(config.status().message().find("tare.toml") != std::string::npos);
    return 0;
  }
  for (bool deterministic : {false, true}) {
    auto [threshold, source] = config->ThresholdFor(std::string(bench), "wall_ns", deterministic);
    TARE_FUZZ_CHECK(std::isfinite(threshold) && threshold >= 0);
  }
  (void)config->IgnoredBy(std::string(bench));
  return 0;
}
