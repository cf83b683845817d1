#include "attribute/stored_profiles.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace tare::attribute {
namespace {

using instrument::Profile;

constexpr char kClientRequest[] = "Client Request: ";

// The dumps of Google Benchmark's timed runs, in the order valgrind writes them (the state machine
// of instrument/sim.cc ReadGbenchWindows, which decides what sim.Ir counts): a run opens after
// StartKeepRunning; the part before a PauseTiming and the part before FinishKeepRunning are kept
// while the window is open; ResumeTiming reopens it. The last complete run is the reported one.
std::vector<Profile> GbenchParts(std::vector<Profile> parts) {
  const std::string after_start = "--dump-after=benchmark::State::StartKeepRunning()";
  const std::string after_resume = "--dump-after=benchmark::State::ResumeTiming()";
  const std::string before_pause = "--dump-before=benchmark::State::PauseTiming()";
  const std::string before_finish = "--dump-before=benchmark::State::FinishKeepRunning()";
  bool in_run = false, open = false;
  std::vector<Profile> current, last;
  for (auto& p : parts) {
    if (p.trigger == after_start) {
      in_run = open = true;
      current.clear();
    } else if (p.trigger == after_resume) {
      if (in_run) open = true;
    } else if (p.trigger == before_pause) {
      if (in_run && open) current.push_back(std::move(p));
      open = false;
    } else if (p.trigger == before_finish && in_run) {
      if (open) current.push_back(std::move(p));
      last = std::move(current);
      current.clear();
      in_run = open = false;
    }
  }
  return last;
}

}  // namespace

StatusOr<std::vector<Profile>> MeasuredParts(const std::vector<ProfileFile>& files, TargetKind kind) {
  std::vector<Profile> parts;
  for (const auto& f : files) {
    TARE_ASSIGN_OR_RETURN(auto file_parts, instrument::ParseCallgrindProfile(f.content, f.name));
    for (auto& p : file_parts) parts.push_back(std::move(p));
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Profile& a, const Profile& b) {
    return std::tie(a.pid, a.part) < std::tie(b.pid, b.part);
  });
  std::vector<Profile> kept;
  if (kind == TargetKind::kTare) {
    for (auto& p : parts) {
      if (p.trigger.rfind(kClientRequest, 0) == 0) kept.push_back(std::move(p));
    }
  } else if (kind == TargetKind::kGbench) {
    kept = GbenchParts(std::move(parts));
  } else {
    kept = std::move(parts);
  }
  if (kept.empty()) {
    std::string names;
    for (const auto& f : files) names += (names.empty() ? "" : ", ") + f.name;
    return Status::FailedPrecondition(fmt::format(
        "no measurement window in the stored profiles ({}) of this {} benchmark", names, TargetKindName(kind)));
  }
  return kept;
}

}  // namespace tare::attribute
