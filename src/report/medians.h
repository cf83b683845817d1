// The per-arm medians a verdict line prints beside its paired change ("39 us → 52.4 us"), and when
// they tell a different story. The verdict is on the paired change: the median of the per-block
// ratios head/base, which cancels what a block shares (host load, frequency). The ratio of the two
// arms' own medians does not; with bimodal samples (a fast and a slow mode whose mix differs between
// arms) or a drift between blocks it can land far from the paired change, and a reviewer who divides
// the medians reads +34% beside a +5.67% change (issue 42). Such a line says so.
//
// The rule: the medians' ratio lies outside the change's interval, by more than
// kMediansNoticeGap. Inside the interval the two agree as far as the data can tell; the gap keeps
// the note for what a reader can see, since medians printed with three significant digits cannot
// show a difference of a fraction of a percent. Exact verdicts (one value per arm) never get it:
// their change is the medians' ratio. Pure.
#pragma once

#include <string>

#include "model/verdict.h"

namespace tare::report {

inline constexpr double kMediansNoticeGap = 0.01;  // one percentage point outside the interval

// head_median / base_median - 1; NaN when either median is missing or not positive.
double MediansChange(const AbMetricResult& m);

// Whether the medians disagree with the paired change, by the rule above.
bool MediansDisagree(const AbMetricResult& m);

// "medians of each arm differ by +34.36%, outside the interval: bimodal or drifting samples; the
// verdict is on the paired change, +5.67%"; "" when they agree. Plain text: escape it for the format.
std::string MediansNote(const AbMetricResult& m);

}  // namespace tare::report
