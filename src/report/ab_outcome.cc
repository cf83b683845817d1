#include "report/ab_outcome.h"

#include <fmt/core.h>

namespace tare::report {
namespace {

int64_t Violated(const AbReport& r, CheckKind kind) {
  int64_t n = 0;
  for (const auto& c : r.checks) n += c.kind == kind && !c.ok ? 1 : 0;
  return n;
}

}  // namespace

AbOutcome OutcomeOf(const AbReport& r) {
  if (r.state == CohortState::kInterrupted) return AbOutcome::kInterrupted;
  // A violated gate stops the campaign after its first block; a report rebuilt from the store says
  // so by its checks even where the state was not kept.
  if (r.state == CohortState::kStopped || !r.GatesOk()) return AbOutcome::kStopped;
  if (!r.BoundsOk()) return AbOutcome::kBoundViolated;
  if (r.SuiteChangeFails()) return AbOutcome::kSuiteChanged;
  if (!r.has_verdicts) return AbOutcome::kInconclusive;
  if (r.outcome == Verdict::kFail) return AbOutcome::kFail;
  if (!r.UnmeasurableCells().empty()) return AbOutcome::kBroken;
  if (r.outcome == Verdict::kInconclusive) return AbOutcome::kInconclusive;
  return AbOutcome::kPass;
}

std::string_view AbOutcomeName(AbOutcome o) {
  switch (o) {
    case AbOutcome::kInterrupted:
      return "INTERRUPTED";
    case AbOutcome::kStopped:
      return "STOPPED";
    case AbOutcome::kBoundViolated:
      return "BOUND VIOLATED";
    case AbOutcome::kSuiteChanged:
      return "SUITE CHANGED";
    case AbOutcome::kFail:
      return "FAIL";
    case AbOutcome::kBroken:
      return "BROKEN";
    case AbOutcome::kInconclusive:
      return "INCONCLUSIVE";
    case AbOutcome::kPass:
      return "PASS";
  }
  return "INCONCLUSIVE";
}

std::string GateText(const AbReport& r) {
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (const int64_t gates = Violated(r, CheckKind::kGate); gates > 0) {
    add(fmt::format("{} sanity gate{} violated", gates, gates == 1 ? "" : "s"));
  }
  if (const int64_t bounds = Violated(r, CheckKind::kBound); bounds > 0) {
    add(fmt::format("{} release bound{} violated", bounds, bounds == 1 ? "" : "s"));
  }
  if (r.SuiteChangeFails()) add("the suite changed (--strict-suite)");
  return out;
}

}  // namespace tare::report
