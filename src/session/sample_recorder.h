// SampleRecorder: the one way a measured sample reaches the store, for `tare run` and `tare ab`.
// Before the sample itself it writes what is new about it: the definitions of metrics not seen
// before in this run, one note per reason a metric is missing ("instructions: hardware counters are
// not supported on this host..."), one warning per kind per cell and arm (the figures in a
// warning vary by sample; the kind does not), and the raw profiles of a cell and arm once (sim
// counts repeat exactly; `tare attribute` reads them). Every write's Status is returned: a store
// that fails makes the session stop with that error, never lose data silently.
//
// Borrowing: the RunWriter must outlive the recorder. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"
#include "session/measurer.h"
#include "store/store.h"

namespace tare::session {

class SampleRecorder {
 public:
  SampleRecorder(store::RunWriter& writer, int64_t run_id) : writer_(writer), run_id_(run_id) {}

  // What a resumed run has already stored (metrics, notes, warnings), so nothing is written twice.
  void Seed(const RunData& stored);

  // Writes `m` for the benchmark `benchmark_id` (`uri` identifies it, `bench_name` is its name in
  // the target: a warning that starts with it is shortened). `label` names the cell (and arm) in
  // warnings, `arm` is "" for plain runs. Returns the stored sample's id.
  StatusOr<int64_t> Record(int64_t benchmark_id, const std::string& uri, const std::string& bench_name,
                           const std::string& label, const Measured& m);

  // Reasons metrics were not measured, in the order first seen (resumed ones included).
  const std::vector<std::string>& unavailable() const { return unavailable_; }
  // The warning notes written (label: warning), one per label and kind.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The metrics the target reported as higher-is-better whatever their names say: Google
  // Benchmark's rates (Counter::kIsRate: per second) and what a program declared "higher" in
  // $TARE_METRICS_FILE, resumed ones included.
  const std::set<std::string>& rates() const { return rates_; }

  // Warnings judged on a whole run rather than one sample, written once the loop ends:
  // syscall-heavy — over the measured (not warm-up), successful samples of a label, median user +
  // system time is at least kSyscallJudgedCpuNs and the median system time is above
  // kSyscallHeavyShare of it.
  Status WriteRunWarnings();

 private:
  bool HaveWarning(const std::string& key) const;

  store::RunWriter& writer_;
  int64_t run_id_;
  std::set<std::string> metrics_, reasons_, profiles_, rates_;
  std::vector<std::string> unavailable_, warnings_;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> cpu_;  // label -> user, sys
  std::vector<std::string> cpu_order_;
};

// Measured on this VM (bench: 15 samples each, median system share of user + system time):
// /bin/true 0.00, ab_knob 0.19, a Google Benchmark binary 0.23, `dd bs=1` 0.58, `find` 0.59. The
// old rule (any single sample above 0.3) flagged all five; 0.4 on the median separates them.
inline constexpr double kSyscallHeavyShare = 0.4;
// The kernel charges user and system time in whole scheduler ticks (4 ms at HZ=250): /bin/true's
// samples show 4-6 ms of user OR of system time, never both. Below about ten ticks the split is
// noise, so shorter processes are not judged.
inline constexpr double kSyscallJudgedCpuNs = 40e6;

}  // namespace tare::session
