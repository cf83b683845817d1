// The closed vocabularies of stored records: what a run is, a cohort's state, a cell's and an
// arm's role, a check's kind. The store, the export documents and every report spell them by
// name (the names below are the stored and printed ones); the code compares the enums. Each name
// is parsed back at the boundary it crosses (store reads, tare.run/2 documents, campaign files);
// a name not listed here is an error there, never a silent default.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "base/status.h"

namespace tare {

// JSON (nlohmann, found by argument-dependent lookup): every one of these is written by its name,
// so `{"role", c.role}` writes "target", never the enum's number, and `j.get<CellRole>()` reads a
// name back, throwing std::runtime_error for one it does not know (the JSON readers' boundary turns
// that into a Status). Templates, so that model need not depend on nlohmann/json.
#define TARE_JSON_BY_NAME(Enum, NameOf, Parse) \
  template <typename Json> \
  void to_json(Json& j, Enum e) { \
    j = NameOf(e); \
  } \
  template <typename Json> \
  void from_json(const Json& j, Enum& e) { \
    auto parsed = Parse(j.template get<std::string>()); \
    if (!parsed.ok()) throw std::runtime_error(parsed.status().message()); \
    e = *parsed; \
  }

// What produced a run: `tare run` (also replays of one) or one cohort of `tare ab`.
enum class RunKind { kRun, kAb };
const char* RunKindName(RunKind k);  // "run" | "ab"
StatusOr<RunKind> ParseRunKind(std::string_view name);

// A cohort's state in the store: running until it ends complete, interrupted (Ctrl-C, a kill:
// `tare ab --resume` continues it) or stopped (a gate, an executable that changed, --fail-fast).
enum class CohortState { kRunning, kComplete, kInterrupted, kStopped };
const char* CohortStateName(CohortState s);  // "running" | "complete" | "interrupted" | "stopped"
StatusOr<CohortState> ParseCohortState(std::string_view name);

// A cell's role in a campaign: judged against the allowance (target), or a benchmark the change
// should not move (control: docs/campaign.md).
enum class CellRole { kTarget, kControl };
const char* CellRoleName(CellRole r);  // "target" | "control"
StatusOr<CellRole> ParseCellRole(std::string_view name);

// An arm's role: base, one of the heads (head, hd02, ...), or the null arm (base again).
enum class ArmRole { kBase, kHead, kNull };
const char* ArmRoleName(ArmRole r);  // "base" | "head" | "null"
StatusOr<ArmRole> ParseArmRole(std::string_view name);
// Arms are named by the campaign (campaign_definition.cc ArmNames): "base", the heads "head",
// "hd02", ..., and "null". The role of an arm by its name: every name but base's and null's is a
// head's. Compare roles, never names.
inline constexpr char kBaseArm[] = "base";
inline constexpr char kFirstHeadArm[] = "head";  // also what a gate or bound names for every head
inline constexpr char kNullArm[] = "null";
ArmRole RoleOfArm(std::string_view arm);

// A check of a campaign: a sanity gate after the first block, or a release bound at the end.
enum class CheckKind { kGate, kBound };
const char* CheckKindName(CheckKind k);  // "gate" | "bound"
StatusOr<CheckKind> ParseCheckKind(std::string_view name);

// How a benchmark of a living suite differs between base and a head (tare ab): only in the head
// (new: measured there, no verdict) or only in base (missing from the head).
enum class SuiteChange { kNew, kMissing };
const char* SuiteChangeName(SuiteChange c);  // "new" | "missing"
StatusOr<SuiteChange> ParseSuiteChange(std::string_view name);

TARE_JSON_BY_NAME(RunKind, RunKindName, ParseRunKind)
TARE_JSON_BY_NAME(CohortState, CohortStateName, ParseCohortState)
TARE_JSON_BY_NAME(CellRole, CellRoleName, ParseCellRole)
TARE_JSON_BY_NAME(ArmRole, ArmRoleName, ParseArmRole)
TARE_JSON_BY_NAME(CheckKind, CheckKindName, ParseCheckKind)
TARE_JSON_BY_NAME(SuiteChange, SuiteChangeName, ParseSuiteChange)

}  // namespace tare
