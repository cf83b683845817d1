// Fuzzes the readers of the CPU descriptions Linux exposes as text (src/env/cpuinfo.h):
// /proc/cpuinfo and CPU lists ("0-3,8-11"). Inside containers and on odd kernels these differ
// from what the parser was written against; it must never fail, and a list it reads must come
// out of FormatCpuList and back unchanged.
#include <string>

#include "env/cpuinfo.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::env;
  const std::string_view text = tare::fuzz::AsText(data, size);
  CpuInfo info = ParseCpuInfo(text);
  TARE_FUZZ_CHECK(info.logical_cpus >= 0 && info.physical_cores >= 0 && info.packages >= 0);
  std::vector<int> cpus = ParseCpuList(text);
  for (size_t i = 1; i < cpus.size(); ++i) TARE_FUZZ_CHECK(cpus[i - 1] < cpus[i]);
  TARE_FUZZ_CHECK(ParseCpuList(FormatCpuList(cpus)) == cpus);
  return 0;
}
