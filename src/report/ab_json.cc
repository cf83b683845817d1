#include "report/ab_json.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <optional>

#include "base/json_read.h"
#include "model/record_fields.h"
#include "report/ab_outcome.h"
#include "report/medians.h"
#include "report/record_json.h"

namespace tare::report {
namespace {

// NaN and infinities are not JSON numbers: they are written as null.
nlohmann::json Num(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

// Where a field of AbMetricResult goes in tare.ab/1 (a JSON pointer), when not at its own name; ""
// for a field the document says otherwise (has_null: "null" is null without a null arm). Every
// other field of the record's one list (model/record_fields.h) is written at its name, so a field
// added to the record reaches tare.ab/1 too.
const std::map<std::string, std::string>& AbPlaces() {
  static const std::map<std::string, std::string> kPlaces = {{"declared", "/declared_allowance"},
                                                             {"estimate", "/change/estimate"},
                                                             {"lo", "/change/lo"},
                                                             {"hi", "/change/hi"},
                                                             {"has_null", ""},
                                                             {"null_estimate", "/null/estimate"},
                                                             {"null_lo", "/null/lo"},
                                                             {"null_hi", "/null/hi"},
                                                             {"noise_floor", "/null/noise_floor"},
                                                             {"host_too_noisy", "/null/host_too_noisy"}};
  return kPlaces;
}

nlohmann::json MetricJson(const AbMetricResult& m) {
  const nlohmann::json fields = FieldsToJson(m, MetricResultFields());
  nlohmann::json out = nlohmann::json::object();
  for (const auto& f : MetricResultFields()) {
    const auto place = AbPlaces().find(f.name);
    const std::string pointer = place == AbPlaces().end() ? std::string("/") + f.name : place->second;
    if (pointer.empty() || (!m.has_null && pointer.rfind("/null/", 0) == 0)) continue;
    out[nlohmann::json::json_pointer(pointer)] = fields.at(f.name);
  }
  if (!m.has_null) out["null"] = nullptr;
  if (m.exact) out["confidence"] = nullptr;  // an exact verdict has no confidence level
  out["medians_change"] = Num(MediansChange(m));
  out["medians_disagree"] = MediansDisagree(m);
  return out;
}

// Every field of the cross-check (model/record_fields.h, CrossCheckFields), in tare.ab/1's shapes:
// the sim figures as an object {name: value}, an empty reading or phrase as null. A field added to
// the record is in the document with no code here (issue 47, item 1).
nlohmann::json CrossCheckJson(const std::optional<AbCrossCheck>& x) {
  if (!x) return nullptr;
  nlohmann::json j = FieldsToJson(*x, CrossCheckFields());
  for (const char* key : {"base", "head"}) {
    nlohmann::json figures = nlohmann::json::object();
    for (const auto& pair : j[key]) figures[pair[0].get<std::string>()] = pair[1];
    j[key] = std::move(figures);
  }
  for (const char* key : {"reading", "phrase"}) {
    if (j[key] == "") j[key] = nullptr;
  }
  return j;
}

// The file name of the executable the user gave for a head arm ("bench_v3" for hd02), "" if unknown.
std::string HeadExecutable(const AbReport& r, const std::string& arm) {
  for (const auto& a : r.arms) {
    if (a.name == arm && !a.source.empty()) return std::filesystem::path(a.source).filename().string();
  }
  return "";
}

}  // namespace

nlohmann::json AbReportToJson(const AbReport& r) {
  nlohmann::json arms = nlohmann::json::array();
  for (const auto& a : r.arms) {
    arms.push_back({{"name", a.name}, {"role", a.role}, {"source", a.source}, {"path", a.path}, {"sha256", a.sha256}});
  }
  nlohmann::json comparisons = nlohmann::json::array();
  for (const auto& c : r.comparisons) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const auto& m : c.metrics) metrics.push_back(MetricJson(m));
    nlohmann::json broken = nullptr;
    if (c.broken.any()) {
      broken = {{"arms", c.broken.arms},
                {"cannot_be_measured", c.broken.cannot_be_measured()},
                {"samples", c.broken.samples},
                {"error", c.broken.error},
                {"stderr_tail", c.broken.stderr_tail},
                {"fix", c.broken.fix}};
    }
    comparisons.push_back({{"cell", c.cell},
                           {"role", c.role},
                           {"head", c.head},
                           {"head_executable", HeadExecutable(r, c.head)},
                           {"blocks", c.blocks},
                           {"looks", c.looks},
                           {"verdict", VerdictName(c.verdict)},
                           {"supported_gain", c.supported_gain},
                           {"failed_samples", c.failed_samples},
                           {"reasons", c.reasons},
                           {"layout_hint", c.layout_hint},
                           {"broken", broken},
                           {"cross_check", CrossCheckJson(c.cross_check)},
                           {"metrics", metrics}});
  }
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks) {
    checks.push_back(FieldsToJson(c, CheckFields()));  // every field of a gate or bound (record_fields.h)
  }
  nlohmann::json layout_rows = nlohmann::json::array();
  for (const auto& row : r.layout_rows) {
    nlohmann::json per = nlohmann::json::array();
    for (size_t k = 0; k < row.verdicts.size(); ++k) {
      per.push_back({{"layout", k},
                     {"verdict", VerdictName(row.verdicts[k])},
                     {"estimate", Num(row.estimates[k])},
                     {"lo", Num(row.los[k])},
                     {"hi", Num(row.his[k])}});
    }
    layout_rows.push_back({{"cell", row.cell},
                           {"head", row.head},
                           {"metric", row.metric},
                           {"layouts", per},
                           {"spread", row.spread},
                           {"layout_sensitive", row.sensitive}});
  }
  nlohmann::json cohorts = nlohmann::json::array();
  for (const auto& c : r.cohorts) {
    cohorts.push_back({{"cohort", c.cohort},
                       {"run_id", c.run_id},
                       {"started_unix_ns", c.started_unix_ns},
                       {"state", c.state},
                       {"stop_reason", c.stop_reason},
                       {"outcome", c.outcome.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.outcome)},
                       {"lock_sha256", c.lock_sha256},
                       {"head_sha256", c.head_sha256},
                       {"samples", c.samples},
                       {"current", c.current}});
  }
  // A living suite: what base and the heads do not share (campaign/suite_diff.h).
  nlohmann::json suite_new = nlohmann::json::array(), suite_missing = nlohmann::json::array();
  for (const auto& e : r.suite) {
    if (e.change == SuiteChange::kMissing) {
      suite_missing.push_back({{"benchmark", e.benchmark}, {"heads", e.heads}});
      continue;
    }
    nlohmann::json figures = nlohmann::json::array();
    for (const auto& f : e.figures) {
      figures.push_back({{"head", f.head},
                         {"metric", f.metric},
                         {"unit", f.unit},
                         {"samples", f.samples},
                         {"median", Num(f.median)},
                         {"min", Num(f.min)},
                         {"max", Num(f.max)}});
    }
    suite_new.push_back({{"benchmark", e.benchmark},
                         {"heads", e.heads},
                         {"figures", figures},
                         {"error", e.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.error)}});
  }
  return {
      {"schema", kAbJsonSchema},
      {"campaign", {{"name", r.campaign_name}, {"sha256", r.campaign_sha256}, {"source", r.campaign_source}}},
      {"cohort", r.cohort},
      {"run_id", r.run_id},
      {"state", r.state},
      {"stop_reason", r.stop_reason},
      {"resumed", r.resumed},
      {"lock_sha256", r.lock_sha256},
      {"lock", EmbedJson(r.lock_json, nullptr)},
      {"tare_version", r.tare_version},
      {"started_unix_ns", r.started_unix_ns},
      {"ended_unix_ns", r.ended_unix_ns},
      {"host", {{"summary", r.host}, {"fingerprint_digest", r.fingerprint_digest}, {"warnings", r.host_warnings}}},
      {"kind", r.kind},
      {"instrument", r.instrument},
      {"args", r.args},
      {"arm_order", r.arm_order},
      {"seed", r.seed},
      {"sampling",
       {{"initial", r.sampling.initial},
        {"step", r.sampling.step},
        {"cap", r.sampling.cap},
        {"growth", r.sampling.growth}}},
      {"budget_ns", r.budget_ns},
      {"budget_default", r.budget_default},
      {"sampling_plan", r.exact_blocks > 0 ? "exact-v1" : "statistical"},
      {"exact_blocks", r.exact_blocks},
      {"confidence", r.confidence},
      {"look_scheme", r.look_scheme},
      {"per_look_confidence", r.per_look_confidence},
      {"look_pairs", r.look_pairs},
      {"noise_floor_rule", r.noise_floor_rule},
      {"interval", r.interval_method},
      {"noise_cap", r.noise_cap},
      {"same_work_allowance", r.same_work_allowance},
      {"arms", arms},
      {"outcome", r.has_verdicts ? nlohmann::json(VerdictName(r.outcome)) : nlohmann::json(nullptr)},
      // Added beside `outcome` (whose meaning stays the worst comparison's): the ledger title's word,
      // ranked as the exit status, so a violated bound is not read as its PASS (issue 42).
      {"gate_outcome", AbOutcomeName(OutcomeOf(r))},
      {"host_too_noisy", r.AnyHostTooNoisy()},
      {"cannot_be_measured", r.UnmeasurableCells()},
      {"gates_ok", r.GatesOk()},
      {"bounds_ok", r.BoundsOk()},
      {"samples", r.samples},
      {"comparisons", comparisons},
      {"checks", checks},
      {"cohorts", cohorts},
      {"notes", r.notes},
      {"layouts", r.layouts},
      {"layout_rows", layout_rows},
      {"suite",
       {{"new", suite_new}, {"missing", suite_missing}, {"strict", r.strict_suite}, {"ok", !r.SuiteChangeFails()}}},
  };
}

}  // namespace tare::report
