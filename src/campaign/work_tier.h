// The work tier of a time campaign (issue 42): before the first timed sample, every cell of a tare or
// Google Benchmark binary runs once under valgrind (the sim instrument) in base, base again (the
// null arm's copy when there is one) and each head. The counts are exact, so one process per arm
// says whether the head does the same work as base:
//   the same work   base repeats exactly (deterministic), and in every head the instructions, the
//                   estimated cycles (the simulated caches: docs/sim.md, iai-v1) and the system
//                   calls are within kSameWorkTolerance of base's;
//   changed         some head moved one of them by more;
//   not read        no valgrind, the process failed, or base did not repeat (not deterministic).
// A cell of the same work is judged on time against at least the campaign's same-work allowance
// (kDefaultSameWorkAllowance, `same_work_allowance`, --same-work-allowance): a time change with no
// change in what the code executes, up to that much, is what placement — where code, data and the
// stack sit — does to a program the pull request did not touch (issue 42: an untouched 64 KiB memcpy
// +3.0..+4.3% after a 2-line benchmark was added). A larger one still FAILs. Changed and unread
// cells are judged at the campaign's allowance, as without the tier. methodology.md §5a says what
// each verdict certifies. Pure; cohort_work.cc measures.
#pragma once

#include <map>
#include <string_view>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::campaign {

// Instructions, estimated cycles and system calls within this fraction of base's: the same work
// (kDeterministicAllowance: an untouched function moves a few hundredths of a percent when an
// unrelated edit shifts where a string starts).
inline constexpr double kSameWorkTolerance = 0.001;
// What placement alone may do to a time metric of a same-work cell; a campaign may lower it, or turn
// the tier off ("off" = 0).
inline constexpr double kDefaultSameWorkAllowance = 0.10;

// "10%" -> 0.10, "off" -> 0 (no work tier); InvalidArgument naming what to write otherwise.
StatusOr<double> ParseSameWorkAllowance(std::string_view text);
// "10%" or "off".
std::string SameWorkAllowanceText(double allowance);

// One head's counts against base's (sim.* values of one process each).
struct WorkChange {
  bool read = false;        // both sides have instructions
  bool same = false;        // within kSameWorkTolerance in every figure below
  double instructions = 0;  // head / base - 1
  double cycles = 0;        // est. cycles, head / base - 1 (0 when either lacks them)
  double base_syscalls = 0, head_syscalls = 0;
  std::string line;  // "the same work: instructions 1,234 → 1,234 (+0.00%), est. cycles ... , system calls 3 → 3"
};
WorkChange CompareWork(const std::map<std::string, double>& base, const std::map<std::string, double>& head);

// What the work tier read for one cell: base's counts, base's rerun, each head's (by arm), or why not.
struct CellWork {
  bool measured = false;
  std::string error;           // "" when every arm was read and base repeated
  bool sample_failed = false;  // error is a failed process (the cell's own verdict says why)
  std::map<std::string, double> base;
  std::map<std::string, std::map<std::string, double>> heads;
  std::map<std::string, WorkChange> changes;  // head -> its change (when error is "")
  bool Same() const;                          // every head the same work
};

// Checks base against its rerun and fills `changes`; sets `error` when base did not repeat.
void ReadCellWork(const std::map<std::string, double>& again, CellWork* work);

// The note a same-work cell's time metric carries (its allowance in effect, and why); it starts with
// "the same work: ", which IsSameWorkNote recognises among a metric's reasons (tare ab --plan reads
// its pilot's verdicts so).
std::string SameWorkNote(const CellWork& work, double allowance);
bool IsSameWorkNote(const std::string& reason);

// The ledger's note on the tier: how many cells read the same work, changed or could not be read.
std::string WorkTierNote(const std::vector<CellWork>& cells, const std::vector<std::string>& names, double allowance);

}  // namespace tare::campaign
