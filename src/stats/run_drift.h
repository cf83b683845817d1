// The host's drift between two runs of one benchmark, estimated from the series of its run medians
// (one median per stored run, oldest first): how far the level of one run lies from the next when
// the code did not change. `tare compare` holds a time change of two separate runs against it, and
// `tare history` a change point's step (docs/methodology.md §10).
//
// Model: the log median of run i is  level_i + e_i,  the e_i independent N(0, sigma^2) (the host's
// state when that run was measured). Between consecutive runs of unchanged code the difference of
// logs d_i = e_{i+1} - e_i is N(0, 2 sigma^2) — exactly the drift that separates a base run from a
// head run. Its scale is estimated robustly from the consecutive differences:
//     sigma_d = 1.4826 * median |d_i|
// (the MAD about 0, consistent for a normal's standard deviation: Rousseeuw & Croux 1993; successive
// differences as the noise of a series whose level may shift: von Neumann 1941). A real change of
// the code between two runs of the series moves one d_i only, and the median ignores it: the
// estimate breaks down only when half the consecutive pairs straddle real changes.
// The bound is the two-sided 99% quantile of |d|:  bound = exp(2.5758 * sigma_d) - 1  (z_0.995 =
// 2.5758293, Abramowitz & Stegun 26.2): what two runs of unchanged code lie apart, as a ratio, in
// 99 of 100 pairs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace tare::stats {

// Consecutive differences needed for an estimate (4 runs in a row): with fewer, one pair decides.
inline constexpr int64_t kMinDriftPairs = 3;
inline constexpr double kDriftZ = 2.5758293035489004;  // the standard normal's 0.995 quantile

struct RunDrift {
  double bound = 0;      // exp(kDriftZ * sigma_log) - 1: the drift between two runs, as a fraction
  double sigma_log = 0;  // 1.4826 * median |log(m[i+1] / m[i])|
  int64_t runs = 0;      // runs whose medians entered at least one difference
  int64_t pairs = 0;     // consecutive differences used
};

// `medians` in run order. A difference is used when both medians are positive and finite and no
// break lies between them: `breaks` are indices i where a new level starts (a change point), so
// the pair (i - 1, i) is left out. nullopt with fewer than kMinDriftPairs differences.
std::optional<RunDrift> RunToRunDrift(std::span<const double> medians, std::span<const int64_t> breaks = {});

}  // namespace tare::stats
