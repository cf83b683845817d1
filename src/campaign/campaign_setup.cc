#include "campaign/campaign_setup.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/core.h>

#include "base/units.h"
#include "env/executable_info.h"
#include "instrument/process_metrics.h"
#include "target/target_kind.h"

namespace tare::campaign {

Status CheckExecutable(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return Status::NotFound(fmt::format("executable '{}' does not exist; build it first or fix the path", path));
  }
  if (S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument(fmt::format("'{}' is a directory; name the executable in it", path));
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(fmt::format("'{}' is not a regular file; name the executable itself", path));
  }
  if (access(path.c_str(), X_OK) != 0) {
    return Status::InvalidArgument(fmt::format("'{}' is not executable; chmod +x it", path));
  }
  return Status::Ok();
}

StatusOr<TargetKind> ResolveKind(const CampaignSpec& spec) {
  if (spec.kind) return *spec.kind;
  TARE_ASSIGN_OR_RETURN(TargetKind base_kind, target::DetectTargetKind(spec.base));
  for (const auto& head : spec.heads) {
    TARE_ASSIGN_OR_RETURN(TargetKind head_kind, target::DetectTargetKind(head));
    if (head_kind != base_kind) {
      return Status::InvalidArgument(
          fmt::format("base '{}' is a {} target but head '{}' is a {} target; compare builds of the same "
                      "program, or force one kind with --kind (kind = \"...\" in the campaign file)",
                      spec.base, TargetKindName(base_kind), head, TargetKindName(head_kind)));
    }
  }
  return base_kind;
}

std::string DefaultCampaignName(const CampaignSpec& spec) {
  std::vector<std::string> executables = {spec.base};
  executables.insert(executables.end(), spec.heads.begin(), spec.heads.end());
  std::vector<std::vector<std::string>> paths;  // each executable's path, its components last first
  for (const std::string& p : executables) {
    std::vector<std::string> parts;
    for (const auto& part : std::filesystem::absolute(p).lexically_normal()) {
      if (!part.empty() && part != "/") parts.insert(parts.begin(), part.string());
    }
    paths.push_back(std::move(parts));
  }
  // The last k components of a path, "head/bench" for k = 2 (fewer when the path is shorter).
  auto suffix = [](const std::vector<std::string>& parts, size_t k) {
    std::string out;
    for (size_t i = std::min(k, parts.size()); i > 0; --i) out += (out.empty() ? "" : "/") + parts[i - 1];
    return out;
  };
  size_t deepest = 1;
  for (const auto& p : paths) deepest = std::max(deepest, p.size());
  // The fewest components that tell every two different executables apart: "base/bench vs
  // head/bench" rather than "bench vs bench" (issue 42). One arm given twice stays one name.
  size_t k = 1;
  for (; k < deepest; ++k) {
    bool apart = true;
    for (size_t a = 0; a < paths.size() && apart; ++a) {
      for (size_t b = a + 1; b < paths.size() && apart; ++b) {
        apart = paths[a] == paths[b] || suffix(paths[a], k) != suffix(paths[b], k);
      }
    }
    if (apart) break;
  }
  std::string heads;
  for (size_t i = 1; i < paths.size(); ++i) heads += (heads.empty() ? "" : ", ") + suffix(paths[i], k);
  return fmt::format("{} vs {}", suffix(paths[0], k), heads);
}

std::string DefaultCommandCellName(const CampaignSpec& spec) {
  if (spec.args.empty()) return "whole process";
  std::string out;
  for (const auto& a : spec.args) out += (out.empty() ? "" : " ") + a;
  return out;
}

std::string ListSome(const std::vector<target::Benchmark>& benches) {
  std::string out;
  for (size_t i = 0; i < benches.size() && i < 10; ++i) out += "\n  " + benches[i].name;
  if (benches.size() > 10) out += "\n  ...";
  return out;
}

bool TaskClockAvailable(proc::Spawner& spawner, const std::string& workdir, std::string* why) {
  proc::SpawnRequest req;
  req.argv = {"/bin/true"};
  req.stdout_path = workdir + "/probe.out";
  req.stderr_path = workdir + "/probe.err";
  req.timeout_ns = 10'000'000'000;
  req.perf_events = {"task-clock"};
  auto r = spawner.Run(req);
  if (!r.ok()) {
    *why = r.status().message();
    return false;
  }
  for (const auto& p : r->perf) {
    if (p.event == "task-clock" && p.value) return true;
    if (p.event == "task-clock") *why = p.unavailable;
  }
  if (why->empty()) *why = r->ok() ? "no task-clock reading" : r->Describe();
  return false;
}

std::vector<std::string> PerfEventsFor(const std::vector<MetricSpec>& metrics) {
  std::vector<std::string> events;
  for (const auto& event : proc::DefaultPerfEvents()) {
    for (const auto& m : metrics) {
      if (m.name == instrument::PerfMetricName(event)) events.push_back(event);
    }
  }
  return events;
}

namespace {

// "BM_a 131072, BM_b 4096" (at most ten cells, then how many in all).
std::string CountList(const std::vector<LockedWork>& work) {
  std::string out;
  size_t shown = 0;
  for (const auto& w : work) {
    if (w.iterations == 0) continue;
    if (shown++ < 10) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", w.cell, w.iterations);
  }
  if (shown > 10) out += fmt::format(", ... ({} cells)", shown);
  return out;
}

// Where the entries came from, in words: "calibrated once on base ..." and "as cohort 1 ran them".
std::string Sources(const std::vector<LockedWork>& work, TargetKind kind) {
  std::vector<std::string> parts;
  for (const auto& w : work) {
    std::string part = w.from == "calibrated"            ? (kind == TargetKind::kTare
                                                                ? "calibrated once on base for a 20 ms window"
                                                                : "each the count Google Benchmark chose in one 20 ms run on base")
                       : w.from == "sim"                 ? "fixed for the sim instrument"
                       : w.from.rfind("cohort ", 0) == 0 ? "as " + w.from + " ran them (its lock)"
                                                         : "";
    if (!part.empty() && std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

constexpr char kPerIteration[] =
    "times are compared per iteration (gb.cpu_time_ns unless the campaign names another metric), so "
    "the comparison is unbiased unless the code's per-iteration cost depends on the count";

}  // namespace

std::string WorkNote(TargetKind kind, Instrument instrument, const std::vector<LockedWork>& work, bool own_min_time) {
  if (kind == TargetKind::kGbench && instrument == Instrument::kSim) {
    return "Iteration counts: under sim every sample of Google Benchmark runs one exactly-counted "
           "iteration, the same in every arm (docs/sim.md).";
  }
  if (kind == TargetKind::kGbench && instrument == Instrument::kMem) {
    return "Iteration counts: under mem every sample of Google Benchmark runs one timed iteration after one "
           "warm-up, the same in every arm: the allocation shim counts the whole process, Google Benchmark's "
           "own bookkeeping included, which is then the same on both sides (docs/measurement.md).";
  }
  const std::string counts = CountList(work);
  if (!counts.empty()) {
    return fmt::format(
        "Iteration counts: fixed per cell{}, the same for every arm and kept in the lock, so every later "
        "cohort and --resume of this campaign runs them too ({}; {}).",
        kind == TargetKind::kGbench ? " with --benchmark_min_time=<N>x" : "", counts, Sources(work, kind));
  }
  if (own_min_time) {
    return fmt::format(
        "Iteration counts: Google Benchmark chooses its own count in every process, for the length the "
        "campaign's own --benchmark_min_time argument sets (tare adds none); {}.",
        kPerIteration);
  }
  int64_t min_time_ns = 0;
  std::string from;
  for (const auto& w : work) {
    if (w.gbench_min_time_ns <= 0) continue;
    min_time_ns = w.gbench_min_time_ns;
    from = w.from;
  }
  if (min_time_ns == 0) return "";
  const std::string why = from == "default"             ? "tare's default instead of Google Benchmark's 0.5 s; "
                                                          "--gbench-min-time sets another"
                          : from == "--gbench-min-time" ? "--gbench-min-time"
                                                        : "as " + from + " ran it (its lock)";
  return fmt::format(
      "Iteration counts: Google Benchmark chooses its own count in every process, within "
      "--benchmark_min_time={:g} per sample ({}, {}), the same for every cell and arm and kept in the "
      "lock, so every later cohort and --resume of this campaign runs it too.{} {}.",
      static_cast<double>(min_time_ns) / 1e9, FormatDurationNs(static_cast<double>(min_time_ns)), why,
      // By default a count is fixed wherever the binary takes one: this one does not.
      from == "default" ? " This build cannot be told a count (--benchmark_min_time=<N>x needs Google "
                          "Benchmark 1.8 or later);"
                        : "",
      from == "default" ? std::string(kPerIteration) : "T" + std::string(kPerIteration + 1));
}

std::map<std::string, std::string> OriginLibraryPaths(const std::vector<std::pair<std::string, std::string>>& sources,
                                                      const std::string& inherited, std::string* note) {
  std::map<std::string, std::string> value;  // arm -> directories
  bool any = false;
  for (const auto& [arm, source] : sources) {
    auto info = env::DescribeExecutable(source);
    const std::string origin =
        std::filesystem::absolute(std::filesystem::path(source)).parent_path().lexically_normal().string();
    std::string dirs;
    for (const auto& entry : info.ok() ? info->runpath : std::vector<std::string>{}) {
      std::string expanded = entry;
      bool uses_origin = false;
      for (const char* token : {"${ORIGIN}", "$ORIGIN"}) {
        for (size_t at; (at = expanded.find(token)) != std::string::npos;) {
          expanded.replace(at, std::string(token).size(), origin);
          uses_origin = true;
        }
      }
      if (!uses_origin) continue;
      any = true;
      dirs += (dirs.empty() ? "" : ":") + expanded;
    }
    value[arm] = dirs.empty() ? origin : dirs;
  }
  std::map<std::string, std::string> out;
  if (!any) return out;
  size_t longest = 0;
  for (const auto& [arm, dirs] : value) longest = std::max(longest, dirs.size());
  for (auto& [arm, dirs] : value) {
    dirs.append(longest - dirs.size(), '/');  // "/a/lib//" is "/a/lib": same search, same length
    out[arm] = "LD_LIBRARY_PATH=" + dirs + (inherited.empty() ? "" : ":" + inherited);
  }
  if (note != nullptr) {
    *note =
        "Shared libraries: the executables find theirs through $ORIGIN, which would point at "
        "the arm copies; every arm runs with LD_LIBRARY_PATH set to its own source's "
        "directories (padded to one length, so the arms' environments stay the same size)";
  }
  return out;
}

}  // namespace tare::campaign
