// Moving whole runs between stores: read every table of one run through the Store interface, and
// write it into another store (either backend) as one transaction, ids remapped.
#include "store/transfer.h"

#include <fmt/format.h>

#include <utility>

namespace tare::store {

StatusOr<FullRun> ReadFullRun(Store& src, int64_t run_id) {
  FullRun out;
  TARE_ASSIGN_OR_RETURN(out.data, src.LoadRun(run_id));
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

// Everything but the run row, into the run `id` of dst.
Status WriteContents(Store& dst, int64_t id, const FullRun& run) {
  const RunData& d = run.data;
  for (const auto& e : d.executables) TARE_RETURN_IF_ERROR(dst.AddExecutable(id, e));
  std::map<int64_t, int64_t> bench_ids;  // source id -> dst id
  for (const auto& b : d.benchmarks) {
    TARE_ASSIGN_OR_RETURN(bench_ids[b.id], dst.AddBenchmark(id, b));
  }
  // An id a table holds without a benchmark row (an artifact of the whole run: 0) stays as it is.
  auto bench = [&](int64_t source) {
    auto it = bench_ids.find(source);
    return it == bench_ids.end() ? source : it->second;
  };
  for (const auto& m : d.metrics) TARE_RETURN_IF_ERROR(dst.AddMetric(id, m));
  for (const auto& n : d.notes) TARE_RETURN_IF_ERROR(dst.AddNote(id, n));
  std::vector<StoredSample> samples = d.samples;
  for (auto& s : samples) s.benchmark_id = bench(s.benchmark_id);
  TARE_ASSIGN_OR_RETURN(auto new_ids, dst.AppendSamples(id, samples));
  std::map<int64_t, int64_t> sample_ids;  // source id -> dst id
  for (size_t i = 0; i < samples.size() && i < new_ids.size(); ++i) sample_ids[d.samples[i].id] = new_ids[i];
  for (const auto& a : run.artifacts) {
    TARE_RETURN_IF_ERROR(dst.AddArtifact(id, bench(a.benchmark_id), a.name, a.content));
  }
  if (run.cohort) {
    CohortRecord c = *run.cohort;
    c.run_id = id;
    TARE_RETURN_IF_ERROR(dst.AddCohort(c));
  }
  for (CellRecord c : run.cells) {
    c.benchmark_id = bench(c.benchmark_id);
    TARE_RETURN_IF_ERROR(dst.AddCell(id, c));
  }
  for (const auto& l : run.looks) {
    TARE_RETURN_IF_ERROR(dst.SaveVerdicts(id, l.cell, l.look, l.final, l.comparisons));
  }
  std::map<CheckKind, std::vector<AbCheck>> checks_by_kind;
  for (const auto& c : run.checks) checks_by_kind[c.kind].push_back(c);
  for (const auto& [kind, checks] : checks_by_kind) TARE_RETURN_IF_ERROR(dst.SaveChecks(id, kind, checks));
  std::map<std::string, std::vector<int64_t>> discarded_by_reason;
  for (const auto& [sample, reason] : run.discarded) {
    auto it = sample_ids.find(sample);
    if (it == sample_ids.end()) {
      return Status::DataLoss(fmt::format(
          "run {} sets aside sample {}, which is not one of its samples; the source store is damaged",
          d.run.uid, sample));
    }
    discarded_by_reason[reason].push_back(it->second);
  }
  for (const auto& [reason, ids] : discarded_by_reason) TARE_RETURN_IF_ERROR(dst.DiscardSamples(id, ids, reason));
  if (d.run.ended_unix_ns != 0 || d.run.status != RunStatus::kRunning) {
    TARE_RETURN_IF_ERROR(dst.FinishRun(id, d.run.status, d.run.ended_unix_ns));
  }
  return Status::Ok();
}

Status CheckUid(const RunRecord& r) {
  if (IsRunUid(r.uid)) return Status::Ok();
  return Status::InvalidArgument(fmt::format(
      "run {} has no valid uid ('{}'); only runs read from a store (schema version 4) can be copied", r.id, r.uid));
}

// Inside dst's transaction: the run, unless a run with its uid is there already.
Status WriteOne(Store& dst, const FullRun& run, WriteResult& result) {
  const RunRecord& r = run.data.run;
  // Under the write lock: a concurrent merge of the same run finds it here and adds nothing.
  TARE_ASSIGN_OR_RETURN(auto existing, dst.FindRunByUid(r.uid));
  if (existing) {
    result = {*existing, false};
    return Status::Ok();
  }
  TARE_ASSIGN_OR_RETURN(result.run_id, dst.BeginRun(r));
  result.added = true;
  return WriteContents(dst, result.run_id, run);
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
