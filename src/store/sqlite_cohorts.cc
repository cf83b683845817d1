// SqliteStore: the campaign tables of schema version 2 (docs/store.md): cohorts with their campaign
// and lock, cells, the verdicts of every look, gates and bounds, and samples set aside by a resume.
#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "internal/sqlite_store.h"

namespace tare::store {


Status SqliteStore::AddCohort(const CohortRecord& c) {
  return Guard("recording a cohort", path_, [&]() -> Status {
    SQLite::Statement q(*db_,
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
    q.bind(10, c.state);
    q.bind(11, c.stop_reason);
    q.bind(12, c.outcome);
    q.bind(13, static_cast<int64_t>(c.resumed));
    q.exec();
    return Status::Ok();
  });
}

Status SqliteStore::SetCohortState(int64_t run_id, const std::string& state, const std::string& stop_reason,
                             const std::string& outcome) {
  return Guard("updating a cohort", path_, [&]() -> Status {
    SQLite::Statement q(*db_,
        "UPDATE ab_cohorts SET state = ?, stop_reason = ?, outcome = ? WHERE run_id = ?");
    q.bind(1, state);
    q.bind(2, stop_reason);
    q.bind(3, outcome);
    q.bind(4, static_cast<int64_t>(run_id));
    q.exec();
    return Status::Ok();
  });
}

Status SqliteStore::MarkCohortResumed(int64_t run_id) {
  return Guard("updating a cohort", path_, [&]() -> Status {
    SQLite::Statement q(*db_,
        "UPDATE ab_cohorts SET resumed = resumed + 1, state = 'running' WHERE run_id = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    q.exec();
    SQLite::Statement r(*db_, "UPDATE runs SET status = 'running' WHERE id = ?");
    r.bind(1, static_cast<int64_t>(run_id));
    r.exec();
    return Status::Ok();
  });
}

StatusOr<int64_t> SqliteStore::NextCohort(const std::string& campaign_sha256) {
  return Guard("numbering a cohort", path_, [&]() -> StatusOr<int64_t> {
    SQLite::Statement q(*db_,
                        "SELECT coalesce(max(cohort), 0) + 1 FROM ab_cohorts WHERE campaign_sha256 = ?");
    q.bind(1, campaign_sha256);
    q.executeStep();
    return static_cast<int64_t>(q.getColumn(0).getInt64());
  });
}

StatusOr<std::vector<CohortRecord>> SqliteStore::CohortsOf(const std::string& campaign_sha256) {
  return Guard("listing cohorts", path_, [&]() -> StatusOr<std::vector<CohortRecord>> {
    SQLite::Statement q(*db_,
        "SELECT c.run_id, c.campaign_sha256, c.campaign_name, c.campaign_source, c.campaign_text, "
        "c.spec, c.lock, c.lock_sha256, c.cohort, c.state, c.stop_reason, c.outcome, c.resumed, "
        "r.started_unix_ns, "
        "(SELECT count(*) FROM samples s WHERE s.run_id = c.run_id AND s.id NOT IN "
        "  (SELECT sample_id FROM ab_discarded_samples d WHERE d.run_id = c.run_id)) "
        "FROM ab_cohorts c JOIN runs r ON r.id = c.run_id WHERE c.campaign_sha256 = ? "
        "ORDER BY c.cohort");
    q.bind(1, campaign_sha256);
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
      c.state = q.getColumn(9).getString();
      c.stop_reason = q.getColumn(10).getString();
      c.outcome = q.getColumn(11).getString();
      c.resumed = q.getColumn(12).getInt64();
      c.started_unix_ns = q.getColumn(13).getInt64();
      c.samples = q.getColumn(14).getInt64();
      out.push_back(std::move(c));
    }
    return out;
  });
}

Status SqliteStore::AddCell(int64_t run_id, const CellRecord& cell) {
  return Guard("recording a cell", path_, [&]() -> Status {
    SQLite::Statement q(*db_,
        "INSERT INTO ab_cells (run_id, cell, name, role, benchmark_id, params) VALUES (?,?,?,?,?,?)");
    q.bind(1, static_cast<int64_t>(run_id));
    q.bind(2, static_cast<int64_t>(cell.cell));
    q.bind(3, cell.name);
    q.bind(4, cell.role);
    q.bind(5, static_cast<int64_t>(cell.benchmark_id));
    q.bind(6, DumpJson(nlohmann::json{{"args", cell.args}, {"env", cell.env}}));
    q.exec();
    return Status::Ok();
  });
}

StatusOr<std::vector<CellRecord>> SqliteStore::CellsOf(int64_t run_id) {
  return Guard("loading cells", path_, [&]() -> StatusOr<std::vector<CellRecord>> {
    SQLite::Statement q(*db_,
        "SELECT cell, name, role, benchmark_id, params FROM ab_cells WHERE run_id = ? ORDER BY cell");
    q.bind(1, static_cast<int64_t>(run_id));
    std::vector<CellRecord> out;
    while (q.executeStep()) {
      CellRecord c;
      c.cell = q.getColumn(0).getInt64();
      c.name = q.getColumn(1).getString();
      c.role = q.getColumn(2).getString();
      c.benchmark_id = q.getColumn(3).getInt64();
      auto params = nlohmann::json::parse(q.getColumn(4).getString(), nullptr, false);
      if (params.is_object()) {
        c.args = params.value("args", std::vector<std::string>{});
        c.env = params.value("env", std::vector<std::string>{});
      }
      out.push_back(std::move(c));
    }
    return out;
  });
}

Status SqliteStore::DiscardSamples(int64_t run_id, const std::vector<int64_t>& sample_ids,
                            const std::string& reason) {
  return Guard("setting samples aside", path_, [&]() -> Status {
    SQLite::Transaction tx(*db_);
    SQLite::Statement q(*db_,
        "INSERT OR IGNORE INTO ab_discarded_samples (sample_id, run_id, reason) VALUES (?,?,?)");
    for (int64_t id : sample_ids) {
      q.bind(1, static_cast<int64_t>(id));
      q.bind(2, static_cast<int64_t>(run_id));
      q.bind(3, reason);
      q.exec();
      q.reset();
    }
    tx.commit();
    return Status::Ok();
  });
}

StatusOr<std::set<int64_t>> SqliteStore::DiscardedSamplesOf(int64_t run_id) {
  return Guard("loading set-aside samples", path_, [&]() -> StatusOr<std::set<int64_t>> {
    SQLite::Statement q(*db_, "SELECT sample_id FROM ab_discarded_samples WHERE run_id = ?");
    q.bind(1, static_cast<int64_t>(run_id));
    std::set<int64_t> out;
    while (q.executeStep()) out.insert(q.getColumn(0).getInt64());
    return out;
  });
}

Status SqliteStore::SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                                 const std::vector<AbComparison>& comparisons) {
  return Guard("storing verdicts", path_, [&]() -> Status {
    SQLite::Transaction tx(*db_);
    if (final) {
      SQLite::Statement clear(*db_, "UPDATE ab_verdicts SET final = 0 WHERE run_id = ? AND cell = ?");
      clear.bind(1, static_cast<int64_t>(run_id));
      clear.bind(2, static_cast<int64_t>(cell));
      clear.exec();
    }
    SQLite::Statement q(*db_,
        "INSERT OR REPLACE INTO ab_verdicts (run_id, cell, head, metric, look, final, pairs, "
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
        BindNumber(q, 9, m.estimate);
        BindNumber(q, 10, m.lo);
        BindNumber(q, 11, m.hi);
        BindNumber(q, 12, m.base_median);
        BindNumber(q, 13, m.head_median);
        q.bind(14, m.allowance);
        BindNumber(q, 15, m.delta);
        BindNumber(q, 16, m.noise_floor);
        BindNumber(q, 17, m.null_estimate);
        BindNumber(q, 18, m.null_lo);
        BindNumber(q, 19, m.null_hi);
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
    tx.commit();
    return Status::Ok();
  });
}

Status SqliteStore::SaveChecks(int64_t run_id, const std::string& kind,
                               const std::vector<AbCheck>& checks) {
  return Guard("storing checks", path_, [&]() -> Status {
    SQLite::Transaction tx(*db_);
    SQLite::Statement clear(*db_, "DELETE FROM ab_checks WHERE run_id = ? AND kind = ?");
    clear.bind(1, static_cast<int64_t>(run_id));
    clear.bind(2, kind);
    clear.exec();
    SQLite::Statement q(*db_,
        "INSERT OR REPLACE INTO ab_checks (run_id, kind, rule, cell, arm, value, limit_value, ok) "
        "VALUES (?,?,?,?,?,?,?,?)");
    for (const auto& c : checks) {
      q.bind(1, static_cast<int64_t>(run_id));
      q.bind(2, kind);
      q.bind(3, c.rule);
      q.bind(4, c.cell);
      q.bind(5, c.arm);
      BindNumber(q, 6, c.value);
      BindNumber(q, 7, c.limit);
      q.bind(8, c.ok ? 1 : 0);
      q.exec();
      q.reset();
    }
    tx.commit();
    return Status::Ok();
  });
}

}  // namespace tare::store
