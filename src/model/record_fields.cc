#include "model/record_fields.h"

#include <iterator>

namespace tare {
namespace {

using VerdictRecord = AbMetricResult;
const Field<VerdictRecord> kMetricResultFields[] = {
    {"metric", &VerdictRecord::metric},
    {"unit", &VerdictRecord::unit, kFullVerdictSchema},
    {"direction", &VerdictRecord::direction, kFullVerdictSchema},
    {"allowance", &VerdictRecord::allowance},
    {"declared", &VerdictRecord::declared, kFullVerdictSchema},
    {"pairs", &VerdictRecord::pairs},
    {"confidence", &VerdictRecord::confidence},
    {"estimate", &VerdictRecord::estimate},
    {"lo", &VerdictRecord::lo},
    {"hi", &VerdictRecord::hi},
    {"base_median", &VerdictRecord::base_median},
    {"head_median", &VerdictRecord::head_median},
    {"has_null", &VerdictRecord::has_null, kFullVerdictSchema},
    {"null_estimate", &VerdictRecord::null_estimate},
    {"null_lo", &VerdictRecord::null_lo},
    {"null_hi", &VerdictRecord::null_hi},
    {"noise_floor", &VerdictRecord::noise_floor},
    {"delta", &VerdictRecord::delta},
    {"pass_bound", &VerdictRecord::pass_bound, kFullVerdictSchema},
    {"host_too_noisy", &VerdictRecord::host_too_noisy},
    {"verdict", &VerdictRecord::verdict},
    {"supported_gain", &VerdictRecord::supported_gain},
    {"changed", &VerdictRecord::changed, kFullVerdictSchema},
    {"exact", &VerdictRecord::exact, kFullVerdictSchema},
    {"reasons", &VerdictRecord::reasons},
};

using ComparisonRecord = AbComparison;
const Field<ComparisonRecord> kComparisonFields[] = {
    {"role", &ComparisonRecord::role, kFullVerdictSchema},
    {"blocks", &ComparisonRecord::blocks, kFullVerdictSchema},
    {"looks", &ComparisonRecord::looks, kFullVerdictSchema},
    {"verdict", &ComparisonRecord::verdict, kFullVerdictSchema},
    {"supported_gain", &ComparisonRecord::supported_gain, kFullVerdictSchema},
    {"failed_samples", &ComparisonRecord::failed_samples, kFullVerdictSchema},
    {"reasons", &ComparisonRecord::reasons, kFullVerdictSchema},
    {"layout_hint", &ComparisonRecord::layout_hint, kFullVerdictSchema},
};

using BrokenRecord = AbBroken;
const Field<BrokenRecord> kBrokenFields[] = {
    {"arms", &BrokenRecord::arms, kFullVerdictSchema},
    {"samples", &BrokenRecord::samples, kFullVerdictSchema},
    {"error", &BrokenRecord::error, kFullVerdictSchema, true},
    {"stderr_tail", &BrokenRecord::stderr_tail, kFullVerdictSchema, true},
    {"fix", &BrokenRecord::fix, kFullVerdictSchema},
};

using CrossCheckRecord = AbCrossCheck;
const Field<CrossCheckRecord> kCrossCheckFields[] = {
    {"metric", &CrossCheckRecord::metric, kFullVerdictSchema},
    {"time_change", &CrossCheckRecord::time_change, kFullVerdictSchema},
    {"instructions_change", &CrossCheckRecord::instructions_change, kFullVerdictSchema},
    {"reading", &CrossCheckRecord::reading, kFullVerdictSchema},
    {"phrase", &CrossCheckRecord::phrase, kFullVerdictSchema},
    {"line", &CrossCheckRecord::line, kFullVerdictSchema},
    {"error", &CrossCheckRecord::error, kFullVerdictSchema, true},
    {"base", &CrossCheckRecord::base, kFullVerdictSchema},
    {"head", &CrossCheckRecord::head, kFullVerdictSchema},
};

using CheckRecord = AbCheck;
const Field<CheckRecord> kCheckFields[] = {
    {"kind", &CheckRecord::kind},
    {"rule", &CheckRecord::rule},
    {"cell", &CheckRecord::cell, 2, true},
    {"arm", &CheckRecord::arm},
    {"value", &CheckRecord::value},
    {"limit", &CheckRecord::limit, 2, false, "limit_value"},
    {"unit", &CheckRecord::unit, kFullVerdictSchema},
    {"ok", &CheckRecord::ok},
};

// Each record's members, counted: a member added to a record fails to compile here (the structured
// binding has one name per member). Add it to the record's list above, then to the count.
[[maybe_unused]] void CountMembers(const VerdictRecord& m, const ComparisonRecord& c, const BrokenRecord& b,
                                   const CrossCheckRecord& x, const CheckRecord& k) {
  [[maybe_unused]] const auto& [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19,
                                m20, m21, m22, m23, m24, m25] = m;
  static_assert(std::size(kMetricResultFields) == 25);
  // cell and head are the comparison's keys; metrics, broken and cross_check have lists of their own.
  [[maybe_unused]] const auto& [c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13] = c;
  static_assert(std::size(kComparisonFields) == 13 - 5);
  [[maybe_unused]] const auto& [b1, b2, b3, b4, b5] = b;
  static_assert(std::size(kBrokenFields) == 5);
  [[maybe_unused]] const auto& [x1, x2, x3, x4, x5, x6, x7, x8, x9] = x;
  static_assert(std::size(kCrossCheckFields) == 9);
  [[maybe_unused]] const auto& [k1, k2, k3, k4, k5, k6, k7, k8] = k;
  static_assert(std::size(kCheckFields) == 8);
}

}  // namespace

std::span<const Field<AbMetricResult>> MetricResultFields() { return kMetricResultFields; }
std::span<const Field<AbComparison>> ComparisonFields() { return kComparisonFields; }
std::span<const Field<AbBroken>> BrokenFields() { return kBrokenFields; }
std::span<const Field<AbCrossCheck>> CrossCheckFields() { return kCrossCheckFields; }
std::span<const Field<AbCheck>> CheckFields() { return kCheckFields; }

}  // namespace tare
