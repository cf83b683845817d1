// Fuzzes the readers of what an unmodified Google Benchmark binary writes (src/target/gbench.h):
// its --benchmark_out JSON and its --benchmark_list_tests output. The program under test writes
// both, so nothing in them is trusted. Input: the first line is the benchmark the JSON must
// report (as the runner asks for one by name), the rest is the JSON; the whole input is also read
// as a list.
#include <cmath>
#include <string>

#include "fuzz_check.h"
#include "target/gbench.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::target;
  const std::string_view text = tare::fuzz::AsText(data, size);
  auto [name, json] = tare::fuzz::SplitFirstLine(text);
  auto reading = ParseGbenchJson(std::string(json), std::string(name));
  if (reading.ok() && !reading->error) {
    // What a sample records: finite figures, a real thread count.
    TARE_FUZZ_CHECK(std::isfinite(reading->iterations));
    TARE_FUZZ_CHECK(std::isfinite(reading->real_time_ns));
    TARE_FUZZ_CHECK(std::isfinite(reading->cpu_time_ns));
    TARE_FUZZ_CHECK(reading->threads >= 1);
    for (const auto& [name, value] : reading->counters) TARE_FUZZ_CHECK(std::isfinite(value));
  }
  for (const std::string& listed : ParseGbenchList(std::string(text))) {
    TARE_FUZZ_CHECK(!listed.empty());
    std::string escaped = EscapeRegex(listed);
    TARE_FUZZ_CHECK(escaped.size() >= listed.size());
    (void)GbenchSampleArgs(listed, "/tmp/out.json");
  }
  return 0;
}
