#include "model/kinds.h"

#include <fmt/format.h>

#include <initializer_list>

namespace tare {
namespace {

// The value among `all` whose name is `name`; DataLoss naming `what` and the accepted names
// otherwise (a name read back from the store or a document that this tare does not know).
template <typename E>
StatusOr<E> ByName(std::string_view name, std::initializer_list<E> all, const char* (*name_of)(E), const char* what) {
  std::string accepted;
  for (E e : all) {
    if (name == name_of(e)) return e;
    accepted += accepted.empty() ? "" : ", ";
    accepted += name_of(e);
  }
  return Status::DataLoss(fmt::format("unknown {} '{}' (known: {})", what, name, accepted));
}

}  // namespace

const char* RunKindName(RunKind k) { return k == RunKind::kAb ? "ab" : "run"; }
StatusOr<RunKind> ParseRunKind(std::string_view name) {
  return ByName(name, {RunKind::kRun, RunKind::kAb}, RunKindName, "run kind");
}

const char* CohortStateName(CohortState s) {
  switch (s) {
    case CohortState::kRunning:
      return "running";
    case CohortState::kComplete:
      return "complete";
    case CohortState::kInterrupted:
      return "interrupted";
    case CohortState::kStopped:
      return "stopped";
  }
  return "running";
}
StatusOr<CohortState> ParseCohortState(std::string_view name) {
  return ByName(name, {CohortState::kRunning, CohortState::kComplete, CohortState::kInterrupted, CohortState::kStopped},
                CohortStateName, "cohort state");
}

const char* CellRoleName(CellRole r) { return r == CellRole::kControl ? "control" : "target"; }
StatusOr<CellRole> ParseCellRole(std::string_view name) {
  return ByName(name, {CellRole::kTarget, CellRole::kControl}, CellRoleName, "cell role");
}

const char* ArmRoleName(ArmRole r) {
  switch (r) {
    case ArmRole::kBase:
      return "base";
    case ArmRole::kHead:
      return "head";
    case ArmRole::kNull:
      return "null";
  }
  return "base";
}
StatusOr<ArmRole> ParseArmRole(std::string_view name) {
  return ByName(name, {ArmRole::kBase, ArmRole::kHead, ArmRole::kNull}, ArmRoleName, "arm role");
}
ArmRole RoleOfArm(std::string_view arm) {
  if (arm == kBaseArm) return ArmRole::kBase;
  if (arm == kNullArm) return ArmRole::kNull;
  return ArmRole::kHead;
}

const char* CheckKindName(CheckKind k) { return k == CheckKind::kBound ? "bound" : "gate"; }
StatusOr<CheckKind> ParseCheckKind(std::string_view name) {
  return ByName(name, {CheckKind::kGate, CheckKind::kBound}, CheckKindName, "check kind");
}

const char* SuiteChangeName(SuiteChange c) { return c == SuiteChange::kNew ? "new" : "missing"; }
StatusOr<SuiteChange> ParseSuiteChange(std::string_view name) {
  return ByName(name, {SuiteChange::kNew, SuiteChange::kMissing}, SuiteChangeName, "suite change");
}

}  // namespace tare
