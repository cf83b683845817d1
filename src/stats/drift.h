// Drift: does a metric trend with the order the samples were taken in (warming caches, thermal
// throttling, a filling disk)? Measured as Spearman's rank correlation between the values and
// their sample order, which catches any monotone trend and ignores the scale of the values.
#pragma once

#include <cstdint>
#include <span>

#include "base/status.h"

namespace tare::stats {

struct RankCorrelation {
  int64_t n = 0;
  double rho = 0;      // Spearman's rho in [-1, 1]; NaN when undefined (see below)
  double p_value = 0;  // two-sided; NaN when undefined
};

// Spearman's rho of x and y (Pearson correlation of their average ranks) with the two-sided
// p-value from the t approximation t = rho sqrt((n - 2) / ((1 + rho)(1 - rho))), n - 2 degrees of
// freedom, exactly as scipy.stats.spearmanr (scipy 1.10) computes it; |rho| = 1 gives p = 0.
// rho and p are NaN when n < 3 or either side is constant (no ranks to correlate), as scipy.
// Errors (InvalidArgument) for different lengths or a NaN value.
StatusOr<RankCorrelation> SpearmanCorrelation(std::span<const double> x, std::span<const double> y);

// Spearman correlation of values (in sample order) with 0, 1, 2, ...: rho > 0 means the values
// rise over the run. A constant series (e.g. deterministic instruction counts) gives NaN: there is
// nothing to trend. Errors for a NaN value.
StatusOr<RankCorrelation> OrderDrift(std::span<const double> values_in_sample_order);

}  // namespace tare::stats
