// Moving whole runs between stores: read every table of one run through the Store interface, and
// write it into another store (either backend) as one transaction, ids remapped.
#include "store/transfer.h"

#include <fmt/format.h>

#include <utility>

namespace tare::store {

StatusOr<FullRun> ReadFullRun(Store& src, int64_t run_id) {
  TARE_ASSIGN_OR_RETURN(FullRun out, ReadFullRunHead(src, run_id));
  TARE_ASSIGN_OR_RETURN(out.data, src.LoadRun(run_id));
  return out;
}

StatusOr<FullRun> ReadFullRunHead(Store& src, int64_t run_id) {
  FullRun out;
  TARE_ASSIGN_OR_RETURN(out.data, src.LoadRunHead(run_id));
  TARE_ASSIGN_OR_RETURN(auto artifacts, src.ArtifactsOf(run_id));
  for (const auto& a : artifacts) {
    TARE_ASSIGN_OR_RETURN(auto content, src.LoadArtifact(run_id, a.benchmark_id, a.name));
    out.artifacts.push_back({a.benchmark_id, a.name, std::move(content)});
  }
  TARE_ASSIGN_OR_RETURN(out.cohort, src.CohortOf(run_id));
  TARE_ASSIGN_OR_RETURN(out.cells, src.CellsOf(run_id));
  TARE_ASSIGN_OR_RETURN(out.looks, src.LooksOf(run_id));
  TARE_ASSIGN_OR_RETURN(out.checks, src.ChecksOf(run_id));
  TARE_ASSIGN_OR_RETURN(out.discarded, src.DiscardReasonsOf(run_id));
  return out;
}

namespace {

Status CheckUid(const RunRecord& r) {
  if (IsRunUid(r.uid)) return Status::Ok();
  return Status::InvalidArgument(fmt::format(
      "run {} has no valid uid ('{}'); only runs read from a store (schema version 4) can be copied", r.id, r.uid));
}

}  // namespace

// Under the write lock (the caller's transaction): a concurrent merge of the same run finds it
// here and adds nothing.
StatusOr<WriteResult> RunPartsWriter::Begin() {
  const RunData& d = head_.data;
  TARE_RETURN_IF_ERROR(CheckUid(d.run));
  TARE_ASSIGN_OR_RETURN(auto existing, dst_.FindRunByUid(d.run.uid));
  if (existing) return WriteResult{*existing, false};
  TARE_ASSIGN_OR_RETURN(id_, dst_.BeginRun(d.run));
  for (const auto& e : d.executables) TARE_RETURN_IF_ERROR(dst_.AddExecutable(id_, e));
  for (const auto& b : d.benchmarks) {
    TARE_ASSIGN_OR_RETURN(bench_ids_[b.id], dst_.AddBenchmark(id_, b));
  }
  for (const auto& m : d.metrics) TARE_RETURN_IF_ERROR(dst_.AddMetric(id_, m));
  for (const auto& n : d.notes) TARE_RETURN_IF_ERROR(dst_.AddNote(id_, n));
  return WriteResult{id_, true};
}

namespace {

// An id a table holds without a benchmark row (an artifact of the whole run: 0) stays as it is.
int64_t Remapped(const std::map<int64_t, int64_t>& ids, int64_t source) {
  auto it = ids.find(source);
  return it == ids.end() ? source : it->second;
}

}  // namespace

Status RunPartsWriter::AddSamples(std::vector<StoredSample> samples) {
  if (samples.empty()) return Status::Ok();
  for (auto& s : samples) s.benchmark_id = Remapped(bench_ids_, s.benchmark_id);
  TARE_ASSIGN_OR_RETURN(auto new_ids, dst_.AppendSamples(id_, samples));
  for (size_t i = 0; i < samples.size() && i < new_ids.size(); ++i) {
    if (head_.discarded.count(samples[i].id) > 0) set_aside_[samples[i].id] = new_ids[i];
  }
  return Status::Ok();
}

Status RunPartsWriter::Finish() {
  const RunData& d = head_.data;
  for (const auto& a : head_.artifacts) {
    TARE_RETURN_IF_ERROR(dst_.AddArtifact(id_, Remapped(bench_ids_, a.benchmark_id), a.name, a.content));
  }
  if (head_.cohort) {
    CohortRecord c = *head_.cohort;
    c.run_id = id_;
    TARE_RETURN_IF_ERROR(dst_.AddCohort(c));
  }
  for (CellRecord c : head_.cells) {
    c.benchmark_id = Remapped(bench_ids_, c.benchmark_id);
    TARE_RETURN_IF_ERROR(dst_.AddCell(id_, c));
  }
  for (const auto& l : head_.looks) {
    TARE_RETURN_IF_ERROR(dst_.SaveVerdicts(id_, l.cell, l.look, l.final, l.comparisons, l.lacks));
  }
  std::map<CheckKind, std::vector<AbCheck>> checks_by_kind;
  for (const auto& c : head_.checks) checks_by_kind[c.kind].push_back(c);
  for (const auto& [kind, checks] : checks_by_kind) TARE_RETURN_IF_ERROR(dst_.SaveChecks(id_, kind, checks));
  std::map<std::string, std::vector<int64_t>> discarded_by_reason;
  for (const auto& [sample, reason] : head_.discarded) {
    auto it = set_aside_.find(sample);
    if (it == set_aside_.end()) {
      return Status::DataLoss(
          fmt::format("run {} sets aside sample {}, which is not one of its samples; the source store is damaged",
                      d.run.uid, sample));
    }
    discarded_by_reason[reason].push_back(it->second);
  }
  for (const auto& [reason, ids] : discarded_by_reason) TARE_RETURN_IF_ERROR(dst_.DiscardSamples(id_, ids, reason));
  if (d.run.ended_unix_ns != 0 || d.run.status != RunStatus::kRunning) {
    TARE_RETURN_IF_ERROR(dst_.FinishRun(id_, d.run.status, d.run.ended_unix_ns));
  }
  return Status::Ok();
}

namespace {

// Inside dst's transaction: the run, unless a run with its uid is there already.
Status WriteOne(Store& dst, const FullRun& run, WriteResult& result) {
  RunPartsWriter w(dst, run);
  TARE_ASSIGN_OR_RETURN(result, w.Begin());
  if (!result.added) return Status::Ok();
  TARE_RETURN_IF_ERROR(w.AddSamples(run.data.samples));
  return w.Finish();
}

// The runs, in one transaction.
StatusOr<std::vector<WriteResult>> WriteRuns(Store& dst, const std::vector<const FullRun*>& runs) {
  for (const FullRun* run : runs) TARE_RETURN_IF_ERROR(CheckUid(run->data.run));
  std::vector<WriteResult> results;
  Status s = dst.InTransaction([&]() -> Status {
    results.assign(runs.size(), WriteResult{});  // the body may run again after a lost connection
    for (size_t i = 0; i < runs.size(); ++i) TARE_RETURN_IF_ERROR(WriteOne(dst, *runs[i], results[i]));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return results;
}

}  // namespace

StatusOr<WriteResult> WriteFullRun(Store& dst, const FullRun& run) {
  TARE_ASSIGN_OR_RETURN(auto results, WriteRuns(dst, {&run}));
  return results.front();
}

StatusOr<std::vector<WriteResult>> WriteFullRuns(Store& dst, const std::vector<FullRun>& runs) {
  std::vector<const FullRun*> pointers;
  for (const auto& run : runs) pointers.push_back(&run);
  return WriteRuns(dst, pointers);
}

}  // namespace tare::store
