#include "attribute/inputs.h"

#include <fmt/format.h>

#include <filesystem>

#include "attribute/stored_profiles.h"
#include "base/sha256.h"

namespace tare::attribute {
namespace {

using instrument::Profile;

StatusOr<std::vector<Profile>> ReadProfileFile(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    return Status::NotFound(fmt::format("profile '{}' does not exist; check the path", path));
  }
  auto parts = instrument::ReadCallgrindProfile(path);
  if (!parts.ok()) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a callgrind profile this tare can read ({}); give files written by valgrind "
                    "--tool=callgrind (callgrind.out.<pid>)",
                    path, parts.status().message()));
  }
  if (parts->empty()) {
    return Status::InvalidArgument(fmt::format("'{}' holds no callgrind profile part", path));
  }
  return parts;
}

// The program a profile ran: the first word of its "cmd:" line, when that file exists.
std::string ExecutableOf(const std::vector<Profile>& parts) {
  for (const auto& p : parts) {
    std::string first = p.cmd.substr(0, p.cmd.find(' '));
    if (!first.empty() && std::filesystem::is_regular_file(first)) return first;
  }
  return "";
}

// The executable recorded for `role`, if it is still there and unchanged.
void SetExecutable(const RunData& data, const std::string& role, Side* side) {
  for (const auto& e : data.executables) {
    if (e.role != role) continue;
    auto sha = Sha256File(e.path);
    if (!sha.ok()) {
      side->exe_problem = fmt::format("the {} executable '{}' is gone", role, e.path);
    } else if (*sha != e.sha256) {
      side->exe_problem = fmt::format("the {} executable '{}' changed since run {}", role, e.path, data.run.id);
    } else {
      side->executable = e.path;
    }
    return;
  }
  side->exe_problem = fmt::format("run {} records no {} executable", data.run.id, role);
}

// The measured parts of one benchmark and arm ("" in a plain run) of a stored run.
StatusOr<std::vector<Profile>> StoredParts(store::Store& store, const RunData& data, const BenchmarkRecord& bench,
                                           const std::string& arm) {
  TARE_ASSIGN_OR_RETURN(auto artifacts, store.ArtifactsOf(data.run.id));
  const std::string prefix = (arm.empty() ? "" : arm + "/") + "callgrind/";
  std::vector<ProfileFile> files;
  bool any_profile = false;
  for (const auto& a : artifacts) {
    if (a.name.find("callgrind/") != std::string::npos) any_profile = true;
    if (a.benchmark_id != bench.id || a.name.rfind(prefix, 0) != 0) continue;
    TARE_ASSIGN_OR_RETURN(std::string content, store.LoadArtifact(data.run.id, a.benchmark_id, a.name));
    files.push_back({a.name, std::move(content)});
  }
  if (!any_profile) {
    return Status::FailedPrecondition(
        fmt::format("run {} has no callgrind profiles: measure with --instrument sim", data.run.id));
  }
  if (files.empty()) {
    return Status::FailedPrecondition(
        fmt::format("run {} kept no callgrind profile for '{}'{} (no sample of it succeeded)", data.run.id, bench.name,
                    arm.empty() ? "" : " in arm " + arm));
  }
  auto parts = MeasuredParts(files, bench.kind);
  if (!parts.ok()) {
    return Status::FailedPrecondition(fmt::format("run {}: {}", data.run.id, parts.status().message()));
  }
  return parts;
}

std::string ListNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

StatusOr<Sides> SidesFromFiles(const std::string& base_path, const std::string& head_path) {
  Sides out;
  TARE_ASSIGN_OR_RETURN(out.base.parts, ReadProfileFile(base_path));
  TARE_ASSIGN_OR_RETURN(out.head.parts, ReadProfileFile(head_path));
  out.base.label = base_path;
  out.head.label = head_path;
  out.base.executable = ExecutableOf(out.base.parts);
  out.head.executable = ExecutableOf(out.head.parts);
  return out;
}

Status RequireSimStore(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    return Status::NotFound(fmt::format(
        "no store at '{}'; measure with `tare ab --instrument sim` or `tare run --instrument sim` first, or "
        "point to one with --store PATH",
        path));
  }
  return Status::Ok();
}

StatusOr<Sides> SidesOfCohortCell(store::Store& store, const RunData& data, const std::string& cell_name,
                                  const std::string& head_arm) {
  const int64_t id = data.run.id;
  TARE_ASSIGN_OR_RETURN(auto cells, store.CellsOf(id));
  std::vector<std::string> names;
  for (const auto& c : cells) names.push_back(c.name);
  const CellRecord* cell = nullptr;
  if (cell_name.empty()) {
    if (cells.size() != 1) {
      return Status::InvalidArgument(
          fmt::format("run {} has {} cells; choose one with --cell NAME: {}", id, cells.size(), ListNames(names)));
    }
    cell = &cells[0];
  } else {
    for (const auto& c : cells) {
      if (c.name == cell_name) cell = &c;
    }
    if (cell == nullptr) {
      return Status::InvalidArgument(
          fmt::format("run {} has no cell '{}'; its cells are: {}", id, cell_name, ListNames(names)));
    }
  }
  const BenchmarkRecord* bench = nullptr;
  for (const auto& b : data.benchmarks) {
    if (b.id == cell->benchmark_id) bench = &b;
  }
  if (bench == nullptr) return Status::DataLoss(fmt::format("run {}: cell '{}' has no benchmark", id, cell->name));
  Sides out;
  TARE_ASSIGN_OR_RETURN(out.base.parts, StoredParts(store, data, *bench, "base"));
  TARE_ASSIGN_OR_RETURN(out.head.parts, StoredParts(store, data, *bench, head_arm));
  out.base.label = fmt::format("run {} base, cell {}", id, cell->name);
  out.head.label = fmt::format("run {} {}, cell {}", id, head_arm, cell->name);
  SetExecutable(data, "base", &out.base);
  SetExecutable(data, head_arm, &out.head);
  return out;
}

StatusOr<Sides> SidesOfCohort(store::Store& store, const std::string& selector, const std::string& cell) {
  TARE_ASSIGN_OR_RETURN(int64_t id, store.ResolveRun(selector));
  TARE_ASSIGN_OR_RETURN(RunData data, store.LoadRun(id));
  if (data.run.kind != RunKind::kAb) {
    return Status::InvalidArgument(
        fmt::format("run {} is a `tare {}`, not a `tare ab` cohort, so it has no base and head arms; compare two "
                    "runs with --base-run A --head-run B --cell NAME",
                    id, RunKindName(data.run.kind)));
  }
  return SidesOfCohortCell(store, data, cell, "head");
}

StatusOr<Side> SideOfRun(store::Store& store, const std::string& selector, const std::string& cell,
                         const std::string& role) {
  TARE_ASSIGN_OR_RETURN(int64_t id, store.ResolveRun(selector));
  TARE_ASSIGN_OR_RETURN(RunData data, store.LoadRun(id));
  if (data.run.kind != RunKind::kRun) {
    return Status::InvalidArgument(
        fmt::format("run {} (--{}-run) is a `tare {}`, not a `tare run`; for a cohort use --run {} --cell NAME", id,
                    role, RunKindName(data.run.kind), id));
  }
  std::vector<std::string> names;
  const BenchmarkRecord* bench = nullptr;
  for (const auto& b : data.benchmarks) {
    names.push_back(b.name);
    if (b.name == cell || (cell.empty() && data.benchmarks.size() == 1)) bench = &b;
  }
  if (bench == nullptr) {
    return Status::InvalidArgument(
        cell.empty() ? fmt::format("run {} has {} benchmarks; choose one with --cell NAME: {}", id, names.size(),
                                   ListNames(names))
                     : fmt::format("run {} has no benchmark '{}'; its benchmarks are: {}", id, cell, ListNames(names)));
  }
  Side side;
  TARE_ASSIGN_OR_RETURN(side.parts, StoredParts(store, data, *bench, ""));
  side.label = fmt::format("run {}, {}", id, bench->name);
  SetExecutable(data, "target", &side);
  return side;
}

}  // namespace tare::attribute
