#include "model/verdict.h"

#include <algorithm>

#include <fmt/format.h>

namespace tare {

std::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "PASS";
    case Verdict::kInconclusive:
      return "INCONCLUSIVE";
    case Verdict::kFail:
      return "FAIL";
  }
  return "UNKNOWN";
}

StatusOr<Verdict> ParseVerdict(std::string_view name) {
  if (name == "PASS") return Verdict::kPass;
  if (name == "INCONCLUSIVE") return Verdict::kInconclusive;
  if (name == "FAIL") return Verdict::kFail;
  return Status::DataLoss(fmt::format("unknown verdict '{}'", name));
}

Verdict WorstVerdict(std::span<const Verdict> verdicts) {
  if (verdicts.empty()) return Verdict::kInconclusive;
  Verdict worst = Verdict::kPass;
  for (Verdict v : verdicts) {
    if (v == Verdict::kFail) return Verdict::kFail;
    if (v == Verdict::kInconclusive) worst = Verdict::kInconclusive;
  }
  return worst;
}

bool AbBroken::cannot_be_measured() const {
  return std::any_of(arms.begin(), arms.end(), [](const std::string& a) { return RoleOfArm(a) != ArmRole::kHead; });
}

}  // namespace tare
