// PairedChange: the change of head against base, estimated from paired samples, as a fraction
// (+0.03 = head is 3% higher). Both interval methods (sign_test.h, hodges_lehmann.h) return it, so
// the campaign verdicts (campaign/verdict_rules.h) read one type whichever method made it.
//
// Pairs: sample i of base and sample i of head ran in the same block, back to back, so host drift
// mostly cancels in the ratio. The analysis works on d_i = ln(head_i / base_i): ratios are the
// natural scale for times and counts (a 2% slowdown is 2% whatever the absolute time), and logs
// make them additive and symmetric (x2 and x0.5 are +-0.693).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::stats {

struct PairedChange {
  // Fractional changes: exp(log value) - 1. estimate is the back-transformed location estimate
  // (sign test: median of d; Hodges–Lehmann: median of Walsh averages of d).
  double estimate = 0;
  double lo = 0;
  double hi = 0;
  // The same on the log scale (d units), for re-analysis and plotting.
  double log_estimate = 0;
  double log_lo = 0;
  double log_hi = 0;
  int64_t n = 0;                    // pairs used
  double requested_confidence = 0;  // what the caller asked for, e.g. 0.95
  double confidence = 0;            // achieved coverage, >= requested (the methods are discrete)
  // 1-based ranks of lo and hi among the sorted d (sign test) or the sorted Walsh averages (HL).
  int64_t rank_lo = 0;
  int64_t rank_hi = 0;
  std::string method;  // "sign-test" or "hodges-lehmann-exact" / "-normal"
};

// d_i = ln(head_i / base_i) for each pair. Errors (InvalidArgument) when the lengths differ, or a
// value is not finite or not positive: a ratio of times or counts needs both sides > 0, so a zero
// count (e.g. 0 allocations) must be compared some other way than as a percentage.
StatusOr<std::vector<double>> LogRatios(std::span<const double> base, std::span<const double> head);

// A PairedChange from a location estimate and interval on the log scale (d units): fills the
// log_* fields and their back-transformed fractions (expm1, which keeps the precision of small
// changes: a 0.01% change is 1e-4, not 1.0001 - 1). The caller sets ranks and method.
PairedChange FromLogInterval(double log_estimate, double log_lo, double log_hi, int64_t n, double requested_confidence,
                             double achieved_confidence);

}  // namespace tare::stats
