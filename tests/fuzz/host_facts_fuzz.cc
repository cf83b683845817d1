// Fuzzes the readers of /proc and /sys behind the host fingerprint and `tare env`'s stability
// checks (src/env/host_facts.h): /proc/cpuinfo, /proc/self/status (Cpus_allowed_list),
// /proc/cmdline (isolcpus, nohz_full), /proc/loadavg, /proc/meminfo, /proc/<pid>/stat and
// /proc/<pid>/task/<tid>/stat (comm may hold spaces and parentheses), the cpufreq, SMT, cache and
// vulnerability files, DMI and the cgroup files — all served by an in-memory host
// (memory_host.h) from the input. Kernels, containers and VMs write these differently; the reader
// must never crash, and what it reports must be usable: the fingerprint it makes survives its JSON
// form and the checks always say something.
#include <cmath>
#include <string>

#include "env/fingerprint_json.h"
#include "env/host_facts.h"
#include "env/host_fingerprint.h"
#include "env/stability_checks.h"
#include "fuzz_check.h"
#include "memory_host.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tare::env;
  tare::fuzz::MemoryHost host(tare::fuzz::AsText(data, size));
  HostFacts facts = ReadHostFacts(host, FactOptions{});
  TARE_FUZZ_CHECK(facts.logical_cpus >= 0 && facts.physical_cores >= 0);
  for (auto load : {facts.load1, facts.load5, facts.load15}) {
    if (load) TARE_FUZZ_CHECK(std::isfinite(*load));
  }
  for (size_t i = 1; i < facts.allowed_cpus.size(); ++i) {
    TARE_FUZZ_CHECK(facts.allowed_cpus[i - 1] < facts.allowed_cpus[i]);
  }
  TARE_FUZZ_CHECK(!RunStabilityChecks(facts).empty());
  (void)RunnableProcesses(host, 8);
  // The fingerprint is stored with every run and compared across runs: what the facts make of it
  // must read back from its JSON with the same digest.
  tare::Fingerprint fp = FingerprintFromFacts(facts);
  auto back = FingerprintFromJson(FingerprintToJson(fp));
  TARE_FUZZ_CHECK(back.ok());
  TARE_FUZZ_CHECK(back->HardDigest() == fp.HardDigest());
  return 0;
}
