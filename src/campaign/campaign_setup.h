// Small pieces of preparing a campaign, shared by the runner and its tests: checking the
// executables, deciding the target kind, default names, environments, and the note on Google
// Benchmark iteration counts.
#pragma once

#include <string>
#include <map>
#include <vector>

#include "base/status.h"
#include "campaign/campaign_definition.h"
#include "campaign/lock.h"
#include "proc/spawner.h"
#include "target/measure.h"

namespace tare::campaign {

// NotFound / InvalidArgument naming the file when it does not exist, is not a regular file, or
// is not executable.
Status CheckExecutable(const std::string& path);

// spec.kind when given, else detected from the base executable
// (scanned, never run). Every head must be of the same kind.
StatusOr<TargetKind> ResolveKind(const CampaignSpec& spec);

// "ab_knob_base vs ab_knob_plus3" (and ", ..." for further heads): the file names, or as many of the
// paths' last components as tell the executables apart ("base/bench vs head/bench").
std::string DefaultCampaignName(const CampaignSpec& spec);
// A command's single cell: its arguments ("--work 8"), or "whole process" without any.
std::string DefaultCommandCellName(const CampaignSpec& spec);

// Executables that find their shared libraries through $ORIGIN (DT_RUNPATH / DT_RPATH entries
// such as "$ORIGIN" or "$ORIGIN/../lib") cannot run from the arm copies: $ORIGIN would be the
// copies' directory. For such campaigns every arm gets LD_LIBRARY_PATH with its own source's
// $ORIGIN entries expanded (searched before DT_RUNPATH, after DT_RPATH), then `inherited` (the
// LD_LIBRARY_PATH the arms would have had). The values are padded with trailing '/' to one length,
// so the arms' environments stay the same size (the initial stack moves with it). Returns
// arm -> "LD_LIBRARY_PATH=..." (empty when no arm uses $ORIGIN) and, in `note`, a line for the
// ledger. `sources`: (arm, source executable).
std::map<std::string, std::string> OriginLibraryPaths(const std::vector<std::pair<std::string, std::string>>& sources,
                                                      const std::string& inherited, std::string* note);

// "\n  BM_a\n  BM_b\n  ..." (at most ten names).
std::string ListSome(const std::vector<target::Benchmark>& benches);

// Whether perf can count task-clock on this host for a child (one run of /bin/true through the
// spawner). When it cannot, `why` says why (perf_event_paranoid, seccomp in a container...).
bool TaskClockAvailable(proc::Spawner& spawner, const std::string& workdir, std::string* why);

// The perf events to open for a campaign's metrics (perf.task_clock_ns -> task-clock...).
std::vector<std::string> PerfEventsFor(const std::vector<MetricSpec>& metrics);

// The ledger's note on the work of one sample per cell (CampaignRunner::FixWork), e.g.
// "Iteration counts: fixed per cell, the same for every arm and every cohort of this campaign
// (BM_a 131072; calibrated once on base for a 20 ms window, kept in the lock)". `own_min_time`:
// the campaign's arguments set Google Benchmark's --benchmark_min_time themselves.
std::string WorkNote(TargetKind kind, Instrument instrument, const std::vector<LockedWork>& work, bool own_min_time);

}  // namespace tare::campaign
