// A living suite: the benchmarks base and each head share, which become the campaign's cells, and
// those only one side lists — new in a head, missing from a head (issue 42). A pull request adds,
// removes and renames benchmarks; the gate judges what both sides have, measures what is new
// (without a verdict: there is nothing to pair it with) and lists what is missing, instead of
// refusing the whole campaign.
//
//   SuiteDiff d = DiffSuites(base_list, {{"head", head_list}});
//   d.common   -> the cells, in base's order
//   d.changes  -> missing (in base's order), then new (in the order the heads list them)
//   d.new_in   -> per head arm, the new benchmarks it runs (what the cohort measures)
//
// A benchmark base has but some head lacks is missing from that head and is no cell at all, even
// for heads that have it: every arm of a cell runs the same benchmark (campaign_runner.h).
// Pure: no I/O.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/sample.h"
#include "model/verdict.h"
#include "target/measure.h"

namespace tare::campaign {

struct ListedArm {
  std::string arm;  // head, hd02, ...
  std::vector<target::Benchmark> benchmarks;
};

struct SuiteDiff {
  std::vector<target::Benchmark> common;                         // base's entries, in base's order
  std::vector<AbSuiteEntry> changes;                             // figures empty: the cohort measures the new ones
  std::map<std::string, std::vector<target::Benchmark>> new_in;  // head arm -> its new benchmarks

  size_t Count(SuiteChange c) const;
};

// Names listed twice by one arm count once.
SuiteDiff DiffSuites(const std::vector<target::Benchmark>& base, const std::vector<ListedArm>& heads);

// The figures of the new benchmarks from their samples (`samples`: benchmark name -> its samples,
// any head arm; failed ones are skipped): per head that has it and metric of `metrics`, the median,
// least and greatest value. A benchmark none of whose samples succeeded gets `error` (the first
// failure's). Replaces what `entries` held; missing entries are left as they are.
void SetNewFigures(std::vector<AbSuiteEntry>& entries, const std::map<std::string, std::vector<Sample>>& samples,
                   const std::vector<std::string>& metrics);

// One line for stderr and the ledger's notes: "the suite changed: 1 benchmark new in head
// (BM_Added), 2 missing from head (BM_Gone, BM_Old); both sides' 34 shared benchmarks are the
// cells". "" when nothing changed.
std::string SuiteChangeLine(const SuiteDiff& d);

}  // namespace tare::campaign
