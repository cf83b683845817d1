// SqlStore: the campaign tables of schema version 2 (docs/store.md): cohorts with their campaign
// and lock, cells, the verdicts of every look, gates and bounds, and samples set aside by a resume;
// since version 7 each look's comparisons whole (internal/sql_fields.h, model/record_fields.h).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>

#include "base/json_read.h"
#include "base/json_text.h"
#include "internal/sql_fields.h"
#include "internal/sql_store.h"

namespace tare::store {

Status SqlStore::AddCohort(const CohortRecord& c) {
  return Guard("recording a cohort", [&](bool) -> Status {
    Statement q(*db_,
                "INSERT INTO ab_cohorts (run_id, campaign_sha256, campaign_name, campaign_source, "
                "campaign_text, spec, lock, lock_sha256, cohort, state, stop_reason, outcome, resumed, notes) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
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
    if (c.notes) {
      q.bind(14, DumpJson(nlohmann::json(*c.notes)));
    } else {
      q.bind(14);
    }
    q.exec();
    return Status::Ok();
  });
}

Status SqlStore::SetCohortState(int64_t run_id, CohortState state, const std::string& stop_reason,
                                const std::string& outcome) {
  return Finishing("updating a cohort", [&](bool) -> Status {
    Statement q(*db_, "UPDATE ab_cohorts SET state = ?, stop_reason = ?, outcome = ? WHERE run_id = ?");
    q.bind(1, CohortStateName(state));
    q.bind(2, stop_reason);
    q.bind(3, outcome);
    q.bind(4, static_cast<int64_t>(run_id));
    q.exec();
    return Status::Ok();
  });
}

Status SqlStore::SetCohortNotes(int64_t run_id, const std::vector<std::string>& notes) {
  return Guard("storing a cohort's notes", [&](bool) -> Status {
    Statement q(*db_, "UPDATE ab_cohorts SET notes = ? WHERE run_id = ?");
    q.bind(1, DumpJson(nlohmann::json(notes)));
    q.bind(2, static_cast<int64_t>(run_id));
    q.exec();
    return Status::Ok();
  });
}

Status SqlStore::MarkCohortResumed(int64_t run_id) {
  return Guard("updating a cohort", [&](bool) -> Status {
    Statement q(*db_, "UPDATE ab_cohorts SET resumed = resumed + 1, state = 'running' WHERE run_id = ?");
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
    Statement q(*db_, "SELECT coalesce(max(cohort), 0) + 1 FROM ab_cohorts WHERE campaign_sha256 = ?");
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
              "r.started_unix_ns, c.notes, "
              "(SELECT count(*) FROM samples s WHERE s.run_id = c.run_id AND s.id NOT IN "
              "  (SELECT sample_id FROM ab_discarded_samples d WHERE d.run_id = c.run_id)) "
              "FROM ab_cohorts c JOIN runs r ON r.id = c.run_id WHERE " +
                  where + " ORDER BY c.cohort");
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
    if (!q.getColumn(14).isNull()) {
      c.notes = StoredJson(ReadJsonText<std::vector<std::string>>(
          q.getColumn(14).getString(), fmt::format("run {}'s cohort notes", c.run_id),
          [](const nlohmann::json& j) { return j.get<std::vector<std::string>>(); }));
    }
    c.samples = q.getColumn(15).getInt64();
    out.push_back(std::move(c));
  }
  return out;
}

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
    Statement q(*db_, "INSERT INTO ab_cells (run_id, cell, name, role, benchmark_id, params) VALUES (?,?,?,?,?,?)");
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
    Statement q(*db_, "SELECT cell, name, role, benchmark_id, params FROM ab_cells WHERE run_id = ? ORDER BY cell");
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
      std::tie(c.args, c.env) = StoredJson(
          ReadJsonText<std::pair<Strings, Strings>>(q.getColumn(4).getString(), what, [](const nlohmann::json& j) {
            return std::pair(JsonAtOr<Strings>(j, "args", {}), JsonAtOr<Strings>(j, "env", {}));
          }));
      out.push_back(std::move(c));
    }
    return out;
  });
}

Status SqlStore::DiscardSamples(int64_t run_id, const std::vector<int64_t>& sample_ids, const std::string& reason) {
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

// The verdict rows' key columns, then MetricResultFields; a comparison row's key columns, then
// ComparisonFields, BrokenFields ("broken_"), whether it has a cross-check and CrossCheckFields
// ("cross_check_"). model/record_fields.h is the one list; docs/store.md names the columns.
namespace {

std::string VerdictColumns() { return "run_id, cell, head, look, final, " + FieldColumns(MetricResultFields()); }
std::string ComparisonColumns() {
  return "run_id, cell, head, look, final, " + FieldColumns(ComparisonFields()) + ", " +
         FieldColumns(BrokenFields(), "broken_") + ", cross_check, " + FieldColumns(CrossCheckFields(), "cross_check_");
}
std::string Placeholders(const std::string& columns) {
  std::string out = "?";
  for (char c : columns) {
    if (c == ',') out += ",?";
  }
  return out;
}

}  // namespace

Status SqlStore::SaveVerdicts(int64_t run_id, int64_t cell, int64_t look, bool final,
                              const std::vector<AbComparison>& comparisons, const std::set<std::string>& lacks) {
  return Guard("storing verdicts", [&](bool) -> Status {
    WriteScope tx(*db_);
    for (const char* table : {"ab_verdicts", "ab_comparisons"}) {
      if (final) {
        Statement clear(*db_, fmt::format("UPDATE {} SET final = 0 WHERE run_id = ? AND cell = ?", table));
        clear.bind(1, static_cast<int64_t>(run_id));
        clear.bind(2, static_cast<int64_t>(cell));
        clear.exec();
      }
      // The look's earlier rows, if any, are replaced.
      Statement replace(*db_, fmt::format("DELETE FROM {} WHERE run_id = ? AND cell = ? AND look = ?", table));
      replace.bind(1, static_cast<int64_t>(run_id));
      replace.bind(2, static_cast<int64_t>(cell));
      replace.bind(3, static_cast<int64_t>(look));
      replace.exec();
    }
    const std::string verdict_columns = VerdictColumns(), comparison_columns = ComparisonColumns();
    Statement q(
        *db_, fmt::format("INSERT INTO ab_verdicts ({}) VALUES ({})", verdict_columns, Placeholders(verdict_columns)));
    Statement qc(*db_, fmt::format("INSERT INTO ab_comparisons ({}) VALUES ({})", comparison_columns,
                                   Placeholders(comparison_columns)));
    auto bind_keys = [&](Statement& st, const AbComparison& c) {
      st.bind(1, static_cast<int64_t>(run_id));
      st.bind(2, static_cast<int64_t>(cell));
      st.bind(3, c.head);
      st.bind(4, static_cast<int64_t>(look));
      st.bind(5, final ? 1 : 0);
    };
    for (const auto& c : comparisons) {
      // A look read from an older store has no comparison row to copy: it gets none (LooksOf).
      if (lacks.count("comparison") == 0) {
        bind_keys(qc, c);
        int p = 6;
        BindFields(qc, &p, c, ComparisonFields());
        BindFields(qc, &p, c.broken, BrokenFields());
        qc.bind(p++, c.cross_check ? 1 : 0);
        BindFields(qc, &p, c.cross_check.value_or(AbCrossCheck{}), CrossCheckFields());
        qc.exec();
        qc.reset();
      }
      for (const auto& m : c.metrics) {
        bind_keys(q, c);
        int i = 6;
        BindFields(q, &i, m, MetricResultFields(), lacks);
        q.exec();
        q.reset();
      }
    }
    tx.Release();
    return Status::Ok();
  });
}

Status SqlStore::SaveChecks(int64_t run_id, CheckKind kind, const std::vector<AbCheck>& checks) {
  return Guard("storing checks", [&](bool) -> Status {
    WriteScope tx(*db_);
    Statement clear(*db_, "DELETE FROM ab_checks WHERE run_id = ? AND kind = ?");
    clear.bind(1, static_cast<int64_t>(run_id));
    clear.bind(2, CheckKindName(kind));
    clear.exec();
    const std::string columns = "run_id, " + FieldColumns(CheckFields());
    std::string update;
    for (const auto& f : CheckFields()) {
      update += fmt::format("{}{} = excluded.{}", update.empty() ? "" : ", ", f.column_name(), f.column_name());
    }
    Statement q(*db_, fmt::format("INSERT INTO ab_checks ({}) VALUES ({}) ON CONFLICT (run_id, kind, rule, cell, arm) "
                                  "DO UPDATE SET {}",
                                  columns, Placeholders(columns), update));
    for (AbCheck c : checks) {
      c.kind = kind;
      q.bind(1, static_cast<int64_t>(run_id));
      int i = 2;
      BindFields(q, &i, c, CheckFields());
      q.exec();
      q.reset();
    }
    tx.Release();
    return Status::Ok();
  });
}

StatusOr<std::vector<StoredLook>> SqlStore::LooksOf(int64_t run_id) {
  return Guard("loading verdicts", [&](bool) -> StatusOr<std::vector<StoredLook>> {
    std::map<int64_t, std::pair<std::string, CellRole>> cells;  // cell -> name, role
    Statement cq(*db_, "SELECT cell, name, role FROM ab_cells WHERE run_id = ?");
    cq.bind(1, static_cast<int64_t>(run_id));
    while (cq.executeStep()) {
      cells[cq.getColumn(0).getInt64()] = {cq.getColumn(1).getString(),
                                           StoredName(ParseCellRole(cq.getColumn(2).getString()))};
    }
    std::map<std::pair<int64_t, int64_t>, StoredLook> looks;  // (cell, look) -> the look
    auto look_of = [&](int64_t cell, int64_t look) -> StoredLook& {
      StoredLook& l = looks[{cell, look}];
      l.cell = cell;
      l.look = look;
      return l;
    };
    // The comparisons first (schema version 7), in the order SaveVerdicts wrote them (rowid: PostgreSQL's
    // tables have a rowid column for this, RenderMigration).
    std::set<std::tuple<int64_t, int64_t, std::string>> kept_whole;
    Statement qc(*db_,
                 "SELECT " + ComparisonColumns() + " FROM ab_comparisons WHERE run_id = ? ORDER BY cell, look, rowid");
    qc.bind(1, static_cast<int64_t>(run_id));
    while (qc.executeStep()) {
      const int64_t cell = qc.getColumn(1).getInt64(), look = qc.getColumn(3).getInt64();
      StoredLook& l = look_of(cell, look);
      l.final = l.final || qc.getColumn(4).getInt() != 0;
      AbComparison c;
      c.cell = cells.count(cell) ? cells[cell].first : "";
      c.head = qc.getColumn(2).getString();
      const std::string what =
          fmt::format("run {} cell {} look {}'s {{}} of the comparison of {}", run_id, cell, look, c.head);
      int col = 5;
      ReadFields(qc, &col, &c, ComparisonFields(), what, &l.lacks);
      ReadFields(qc, &col, &c.broken, BrokenFields(), what, &l.lacks, "broken.");
      const bool has_cross_check = qc.getColumn(col++).getInt() != 0;
      AbCrossCheck x;
      ReadFields(qc, &col, &x, CrossCheckFields(), what, &l.lacks, "cross_check.");
      if (has_cross_check) c.cross_check = std::move(x);
      kept_whole.insert({cell, look, c.head});
      l.comparisons.push_back(std::move(c));
    }
    Statement q(*db_, "SELECT " + VerdictColumns() + " FROM ab_verdicts WHERE run_id = ? ORDER BY cell, look, rowid");
    q.bind(1, static_cast<int64_t>(run_id));
    while (q.executeStep()) {
      const int64_t cell = q.getColumn(1).getInt64(), look = q.getColumn(3).getInt64();
      StoredLook& l = look_of(cell, look);
      l.final = l.final || q.getColumn(4).getInt() != 0;
      const std::string head = q.getColumn(2).getString();
      auto c = std::find_if(l.comparisons.begin(), l.comparisons.end(),
                            [&](const AbComparison& x) { return x.head == head; });
      if (c == l.comparisons.end()) {
        // A store older than schema version 7 kept no comparison: its head, cell and role are
        // known, its verdict is its metrics' worst; the rest it lacks.
        AbComparison fresh;
        fresh.cell = cells.count(cell) ? cells[cell].first : "";
        fresh.role = cells.count(cell) ? cells[cell].second : CellRole::kTarget;
        fresh.head = head;
        c = l.comparisons.insert(l.comparisons.end(), std::move(fresh));
        l.lacks.insert("comparison");
      }
      AbMetricResult m;
      std::set<std::string> lacks;
      int col = 5;
      ReadFields(q, &col, &m, MetricResultFields(),
                 fmt::format("run {} cell {} look {}'s {{}} for {}", run_id, cell, look, q.getColumn(5).getString()),
                 &lacks);
      if (!lacks.empty()) {
        // A row from before the fields were kept: its numbers that were not kept read as NULL too.
        for (const auto& f : MetricResultFields()) {
          if (f.since >= kFullVerdictSchema) lacks.insert(f.name);
        }
        m.has_null = !std::isnan(m.null_estimate);
        l.lacks.insert(lacks.begin(), lacks.end());
      }
      c->metrics.push_back(std::move(m));
      if (kept_whole.count({cell, look, head}) == 0) {
        std::vector<Verdict> verdicts;
        for (const auto& x : c->metrics) verdicts.push_back(x.verdict);
        c->verdict = WorstVerdict(verdicts);
        c->supported_gain = c->supported_gain || c->metrics.back().supported_gain;
      }
    }
    std::vector<StoredLook> out;
    for (auto& [key, l] : looks) out.push_back(std::move(l));
    return out;
  });
}

StatusOr<std::vector<AbCheck>> SqlStore::ChecksOf(int64_t run_id) {
  return Guard("loading checks", [&](bool) -> StatusOr<std::vector<AbCheck>> {
    Statement q(*db_, "SELECT " + FieldColumns(CheckFields()) +
                          " FROM ab_checks WHERE run_id = ? "
                          "ORDER BY CASE kind WHEN 'gate' THEN 0 ELSE 1 END, rowid");
    q.bind(1, static_cast<int64_t>(run_id));
    std::vector<AbCheck> out;
    while (q.executeStep()) {
      AbCheck c;  // gates, then bounds, as the cohort evaluated them
      int col = 0;
      // A check stored before schema version 7 has no unit: it reads as "" (its value in base units).
      ReadFields(q, &col, &c, CheckFields(), fmt::format("run {}'s check's {{}}", run_id), nullptr);
      out.push_back(std::move(c));
    }
    return out;
  });
}

}  // namespace tare::store
