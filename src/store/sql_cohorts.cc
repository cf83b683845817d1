// SqlStore: the campaign tables of schema version 2 (docs/store.md): cohorts with their campaign
// and lock, cells, the verdicts of every look, gates and bounds, and samples set aside by a resume.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "base/json_read.h"
#include "base/json_text.h"
#include "internal/sql_store.h"

namespace tare::store {


Status SqlStore::AddCohort(const CohortRecord& c) {
  return Guard("recording a cohort", [&](bool) -> Status {
    Statement q(*db_,
        "INSERT INTO ab_cohorts (run_id, campaign_sha256, campaign_name, campaign_source, "
        "campaign_text, spec, lock, lock_sha256, cohort, state, stop_reason, outcome, resumed) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    q.bind(1, static_cast<int64_t>(c.run_id));
    q.bind(2, c.campaign_sha256);
    q.bind(3, c.campaign_name);
    q.bind(4, c.campaign_source);
    q.bind(5, c.campaign_text);
    q.bind(6, c.spec_json);
    q.bind(7, c.lock_json);
    q.bind(8, c.lock_sha256);
    q.bind(9, static_cast<int64_t>(c.cohort));
    q.bind(10, CohortStateName(c.state));
    q.bind(11, c.stop_reason);
    q.bind(12, c.outcome);
    q.bind(13, static_cast<int64_t>(c.resumed));
    q.exec();
    return Status::Ok();
  });
}

Status SqlStore::SetCohortState(int64_t run_id, CohortState state, const std::string& stop_reason,
                             const std::string& outcome) {
  return Finishing("updating a cohort", [&](bool) -> Status {
    Statement q(*db_,
        "UPDATE ab_cohorts SET state = ?, stop_reason = ?, outcome = ? WHERE run_id = ?");
    q.bind(1, CohortStateName(state));
    q.bind(2, stop_reason);
    q.bind(3, outcome);
    q.bind(4, static_cast<int64_t>(run_id));
    q.exec();
    return Status::Ok();
  });
}

Status SqlStore::MarkCohortResumed(int64_t run_id) {
  return Guard("updating a cohort", [&](bool) -> Status {
    Statement q(*db_,
        "UPDATE ab_cohorts SET resumed = resumed + 1, state = 'running' WHERE run_id = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    q.exec();
    Statement r(*db_, "UPDATE runs SET status = 'running' WHERE id = ?");
    r.bind(1, static_cast<int64_t>(run_id));
    r.exec();
    return Status::Ok();
  });
}

StatusOr<int64_t> SqlStore::NextCohort(const std::string& campaign_sha256) {
  return Guard("numbering a cohort", [&](bool) -> StatusOr<int64_t> {
    Statement q(*db_,
                        "SELECT coalesce(max(cohort), 0) + 1 FROM ab_cohorts WHERE campaign_sha256 = ?");
    q.bind(1, campaign_sha256);
    q.executeStep();
    return static_cast<int64_t>(q.getColumn(0).getInt64());
  });
}

namespace {

// Cohorts with their run's start and the samples they use; `where` has one parameter.
template <typename Param>
std::vector<CohortRecord> SelectCohorts(Connection& db, const std::string& where, const Param& param) {
  Statement q(db,
      "SELECT c.run_id, c.campaign_sha256, c.campaign_name, c.campaign_source, c.campaign_text, "
      "c.spec, c.lock, c.lock_sha256, c.cohort, c.state, c.stop_reason, c.outcome, c.resumed, "
      "r.started_unix_ns, "
      "(SELECT count(*) FROM samples s WHERE s.run_id = c.run_id AND s.id NOT IN "
      "  (SELECT sample_id FROM ab_discarded_samples d WHERE d.run_id = c.run_id)) "
      "FROM ab_cohorts c JOIN runs r ON r.id = c.run_id WHERE " + where + " ORDER BY c.cohort");
  q.bind(1, param);
  std::vector<CohortRecord> out;
  while (q.executeStep()) {
    CohortRecord c;
    c.run_id = q.getColumn(0).getInt64();
    c.campaign_sha256 = q.getColumn(1).getString();
    c.campaign_name = q.getColumn(2).getString();
    c.campaign_source = q.getColumn(3).getString();
    c.campaign_text = q.getColumn(4).getString();
    c.spec_json = q.getColumn(5).getString();
    c.lock_json = q.getColumn(6).getString();
    c.lock_sha256 = q.getColumn(7).getString();
    c.cohort = q.getColumn(8).getInt64();
    c.state = StoredName(ParseCohortState(q.getColumn(9).getString()));
    c.stop_reason = q.getColumn(10).getString();
    c.outcome = q.getColumn(11).getString();
    c.resumed = q.getColumn(12).getInt64();
    c.started_unix_ns = q.getColumn(13).getInt64();
    c.samples = q.getColumn(14).getInt64();
    out.push_back(std::move(c));
  }
  return out;
}

double NumberOrNaN(const Statement::Column& c) { return c.isNull() ? kNaN : c.getDouble(); }

}  // namespace

StatusOr<std::vector<CohortRecord>> SqlStore::CohortsOf(const std::string& campaign_sha256) {
  return Guard("listing cohorts", [&](bool) -> StatusOr<std::vector<CohortRecord>> {
    return SelectCohorts(*db_, "c.campaign_sha256 = ?", campaign_sha256);
  });
}

StatusOr<std::optional<CohortRecord>> SqlStore::CohortOf(int64_t run_id) {
  return Guard("loading a cohort", [&](bool) -> StatusOr<std::optional<CohortRecord>> {
    auto found = SelectCohorts(*db_, "c.run_id = ?", run_id);
    if (found.empty()) return std::optional<CohortRecord>();
    return std::optional<CohortRecord>(std::move(found.front()));
  });
}

Status SqlStore::AddCell(int64_t run_id, const CellRecord& cell) {
  return Guard("recording a cell", [&](bool) -> Status {
    Statement q(*db_,
        "INSERT INTO ab_cells (run_id, cell, name, role, benchmark_id, params) VALUES (?,?,?,?,?,?)");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(cell.cell));
    q.bind(3, cell.name);
    q.bind(4, CellRoleName(cell.role));
    q.bind(5, static_cast<int64_t>(cell.benchmark_id));
    q.bind(6, DumpJson(nlohmann::json{{"args", cell.args}, {"env", cell.env}}));
    q.exec();
    return Status::Ok();
  });
}

StatusOr<std::vector<CellRecord>> SqlStore::CellsOf(int64_t run_id) {
  return Guard("loading cells", [&](bool) -> StatusOr<std::vector<CellRecord>> {
    Statement q(*db_,
        "SELECT cell, name, role, benchmark_id, params FROM ab_cells WHERE run_id = ? ORDER BY cell");
    q.bind(1, static_cast<int64_t>(run_id));
    std::vector<CellRecord> out;
    while (q.executeStep()) {
      CellRecord c;
      c.cell = q.getColumn(0).getInt64();
      c.name = q.getColumn(1).getString();
      c.role = StoredName(ParseCellRole(q.getColumn(2).getString()));
      c.benchmark_id = q.getColumn(3).getInt64();
      using Strings = std::vector<std::string>;
      const std::string what = fmt::format("run {} cell {}'s parameters", run_id, c.cell);
      std::tie(c.args, c.env) = StoredJson(ReadJsonText<std::pair<Strings, Strings>>(
          q.getColumn(4).getString(), what, [](const nlohmann::json& j) {
            return std::pair(JsonAtOr<Strings>(j, "args", {}), JsonAtOr<Strings>(j, "env", {}));
          }));
      out.push_back(std::move(c));
    }
    return out;
  });
}

Status SqlStore::DiscardSamples(int64_t run_id, const std::vector<int64_t>& sample_ids,
                            const std::string& reason) {
  return Guard("setting samples aside", [&](bool) -> Status {
    WriteScope tx(*db_);
    Statement q(*db_,
        "INSERT INTO ab_discarded_samples (sample_id, run_id, reason) VALUES (?,?,?) ON CONFLICT DO NOTHING");
    for (int64_t id : sample_ids) {
      q.bind(1, static_cast<int64_t>(id));
      q.bind(2, static_cast<int64_t>(run_id));
      q.bind(3, reason);
      q.exec();
      q.reset();
    }
    tx.Release();
    return Status::Ok();
  });
}

StatusOr<std::map<int64_t, std::string>> SqlStore::DiscardReasonsOf(int64_t run_id) {
  return Guard("loading set-aside samples", [&](bool) -> StatusOr<std::map<int64_t, std::string>> {
    Statement q(*db_, "SELECT sample_id, reason FROM ab_discarded_samples WHERE run_id = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    std::map<int64_t, std::string> out;
    while (q.executeStep()) out[q.getColumn(0).getInt64()] = q.getColumn(1).getString();
    return out;
  });
}

StatusOr<std::set<int64_t>> SqlStore::DiscardedSamplesOf(int64_t run_id) {
  return Guard("loading set-aside samples", [&](bool) -> StatusOr<std::set<int64_t>> {
    Statement q(*db_, "SELECT sample_id FROM ab_discarded_samples WHERE run_id = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    std::set<int64_t> out;
    while (q.executeStep()) out.insert(q.getColumn(0).getInt64());
    return out;
  });
}

Status SqlStore::SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                                 const std::vector<AbComparison>& comparisons) {
  return Guard("storing verdicts", [&](bool) -> Status {
    WriteScope tx(*db_);
    if (final) {
      Statement clear(*db_, "UPDATE ab_verdicts SET final = 0 WHERE run_id = ? AND cell = ?");
      clear.bind(1, static_cast<int64_t>(run_id));
      clear.bind(2, static_cast<int64_t>(cell));
      clear.exec();
    }
    // The look's earlier rows, if any, are replaced.
    Statement replace(*db_, "DELETE FROM ab_verdicts WHERE run_id = ? AND cell = ? AND look = ?");
    replace.bind(1, static_cast<int64_t>(run_id));
    replace.bind(2, static_cast<int64_t>(cell));
    replace.bind(3, static_cast<int64_t>(look));
    replace.exec();
    Statement q(*db_,
        "INSERT INTO ab_verdicts (run_id, cell, head, metric, look, final, pairs, "
        "confidence, estimate, lo, hi, base_median, head_median, allowance, delta, noise_floor, "
        "null_estimate, null_lo, null_hi, host_too_noisy, verdict, supported_gain, reasons) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (const auto& c : comparisons) {
      for (const auto& m : c.metrics) {
        q.bind(1, static_cast<int64_t>(run_id));
        q.bind(2, static_cast<int64_t>(cell));
        q.bind(3, c.head);
        q.bind(4, m.metric);
        q.bind(5, static_cast<int64_t>(look));
        q.bind(6, final ? 1 : 0);
        q.bind(7, static_cast<int64_t>(m.pairs));
        q.bind(8, m.confidence);
        q.bind(9, m.estimate);
        q.bind(10, m.lo);
        q.bind(11, m.hi);
        q.bind(12, m.base_median);
        q.bind(13, m.head_median);
        q.bind(14, m.allowance);
        q.bind(15, m.delta);
        q.bind(16, m.noise_floor);
        q.bind(17, m.null_estimate);
        q.bind(18, m.null_lo);
        q.bind(19, m.null_hi);
        q.bind(20, m.host_too_noisy ? 1 : 0);
        q.bind(21, std::string(VerdictName(m.verdict)));
        q.bind(22, m.supported_gain ? 1 : 0);
        std::vector<std::string> reasons = c.reasons;
        reasons.insert(reasons.end(), m.reasons.begin(), m.reasons.end());
        q.bind(23, DumpJson(nlohmann::json(reasons)));
        q.exec();
        q.reset();
      }
    }
    tx.Release();
    return Status::Ok();
  });
}

Status SqlStore::SaveChecks(int64_t run_id, CheckKind kind,
                               const std::vector<AbCheck>& checks) {
  return Guard("storing checks", [&](bool) -> Status {
    WriteScope tx(*db_);
    Statement clear(*db_, "DELETE FROM ab_checks WHERE run_id = ? AND kind = ?");
    clear.bind(1, static_cast<int64_t>(run_id));
    clear.bind(2, CheckKindName(kind));
    clear.exec();
    Statement q(*db_,
        "INSERT INTO ab_checks (run_id, kind, rule, cell, arm, value, limit_value, ok) "
        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (run_id, kind, rule, cell, arm) DO UPDATE SET "
        "value = excluded.value, limit_value = excluded.limit_value, ok = excluded.ok");
    for (const auto& c : checks) {
      q.bind(1, static_cast<int64_t>(run_id));
      q.bind(2, CheckKindName(kind));
      q.bind(3, c.rule);
      q.bind(4, c.cell);
      q.bind(5, c.arm);
      q.bind(6, c.value);
      q.bind(7, c.limit);
      q.bind(8, c.ok ? 1 : 0);
      q.exec();
      q.reset();
    }
    tx.Release();
    return Status::Ok();
  });
}

StatusOr<std::vector<StoredLook>> SqlStore::LooksOf(int64_t run_id) {
  return Guard("loading verdicts", [&](bool) -> StatusOr<std::vector<StoredLook>> {
    std::map<int64_t, std::string> cell_names;
    Statement cells(*db_, "SELECT cell, name FROM ab_cells WHERE run_id = ?");
    cells.bind(1, static_cast<int64_t>(run_id));
    while (cells.executeStep()) cell_names[cells.getColumn(0).getInt64()] = cells.getColumn(1).getString();
    // rowid: the order SaveVerdicts wrote a look's rows in (PostgreSQL's tables have a rowid column
    // for this: RenderMigration).
    Statement q(*db_,
        "SELECT cell, look, final, head, metric, pairs, confidence, estimate, lo, hi, base_median, "
        "head_median, allowance, delta, noise_floor, null_estimate, null_lo, null_hi, host_too_noisy, "
        "verdict, supported_gain, reasons FROM ab_verdicts WHERE run_id = ? ORDER BY cell, look, rowid");
    q.bind(1, static_cast<int64_t>(run_id));
    std::vector<StoredLook> looks;
    while (q.executeStep()) {
      const int64_t cell = q.getColumn(0).getInt64(), look = q.getColumn(1).getInt64();
      if (looks.empty() || looks.back().cell != cell || looks.back().look != look) {
        looks.push_back({cell, look, false, {}});
      }
      StoredLook& l = looks.back();
      l.final = l.final || q.getColumn(2).getInt() != 0;
      const std::string head = q.getColumn(3).getString();
      auto c = std::find_if(l.comparisons.begin(), l.comparisons.end(),
                            [&](const AbComparison& x) { return x.head == head; });
      if (c == l.comparisons.end()) {
        AbComparison fresh;
        fresh.cell = cell_names.count(cell) ? cell_names[cell] : "";
        fresh.head = head;
        c = l.comparisons.insert(l.comparisons.end(), std::move(fresh));
      }
      AbMetricResult m;
      m.metric = q.getColumn(4).getString();
      m.pairs = q.getColumn(5).getInt64();
      m.confidence = q.getColumn(6).getDouble();
      m.estimate = NumberOrNaN(q.getColumn(7));
      m.lo = NumberOrNaN(q.getColumn(8));
      m.hi = NumberOrNaN(q.getColumn(9));
      m.base_median = NumberOrNaN(q.getColumn(10));
      m.head_median = NumberOrNaN(q.getColumn(11));
      m.allowance = q.getColumn(12).getString();
      m.delta = NumberOrNaN(q.getColumn(13));
      m.noise_floor = NumberOrNaN(q.getColumn(14));
      m.null_estimate = NumberOrNaN(q.getColumn(15));
      m.null_lo = NumberOrNaN(q.getColumn(16));
      m.null_hi = NumberOrNaN(q.getColumn(17));
      m.has_null = !std::isnan(m.null_estimate);
      m.host_too_noisy = q.getColumn(18).getInt() != 0;
      // An unknown verdict is a store tare did not write (or a newer tare's): an error naming it,
      // never read as INCONCLUSIVE, which would change what the cohort reports.
      auto verdict = ParseVerdict(q.getColumn(19).getString());
      if (!verdict.ok()) {
        return Status::DataLoss(fmt::format("run {} cell {} look {}'s verdict for {}: {}; this store was written "
                                            "by another version of tare or changed by hand",
                                            run_id, cell, look, m.metric, verdict.status().message()));
      }
      m.verdict = *verdict;
      m.supported_gain = q.getColumn(20).getInt() != 0;
      m.reasons = StoredJson(ReadJsonText<std::vector<std::string>>(
          q.getColumn(21).getString(), fmt::format("run {} cell {} look {}'s reasons for {}", run_id, cell, look, m.metric),
          [](const nlohmann::json& j) { return j.get<std::vector<std::string>>(); }));
      c->metrics.push_back(std::move(m));
      std::vector<Verdict> verdicts;
      for (const auto& x : c->metrics) verdicts.push_back(x.verdict);
      c->verdict = WorstVerdict(verdicts);
      c->supported_gain = c->supported_gain || c->metrics.back().supported_gain;
    }
    return looks;
  });
}

StatusOr<std::vector<AbCheck>> SqlStore::ChecksOf(int64_t run_id) {
  return Guard("loading checks", [&](bool) -> StatusOr<std::vector<AbCheck>> {
    Statement q(*db_,
        "SELECT kind, rule, cell, arm, value, limit_value, ok FROM ab_checks WHERE run_id = ? "
        "ORDER BY kind, rowid");
    q.bind(1, static_cast<int64_t>(run_id));
    std::vector<AbCheck> out;
    while (q.executeStep()) {
      AbCheck c;
      c.kind = StoredName(ParseCheckKind(q.getColumn(0).getString()));
      c.rule = q.getColumn(1).getString();
      c.cell = q.getColumn(2).getString();
      c.arm = q.getColumn(3).getString();
      c.value = NumberOrNaN(q.getColumn(4));
      c.limit = NumberOrNaN(q.getColumn(5));
      c.ok = q.getColumn(6).getInt() != 0;
      out.push_back(std::move(c));
    }
    return out;
  });
}

}  // namespace tare::store
