#include "oracle/flip.h"

#include <cmath>

#include "stats/binomial.h"

namespace tare::oracle {

double VoteWrongProbability(double p, int trials, bool pinned_present) {
  // Present iff 2k > n, i.e. k > floor(n/2). For odd n, floor(n/2) = (n-1)/2: with n = 9 the vote
  // is wrong for a present item when k <= 4.
  const int64_t threshold = trials / 2;
  return pinned_present ? stats::BinomialCdf(threshold, trials, p) : stats::BinomialSf(threshold, trials, p);
}

double WrongOnEveryAttempt(double q, int retries) { return std::pow(q, retries + 1); }

double WrongAtLeastOnce(double q, int retries) {
  if (q >= 1) return 1;
  return -std::expm1((retries + 1) * std::log1p(-q));
}

double ExpectedProcesses(double q, int trials, int retries) {
  double attempts = 0;
  double reach = 1;  // probability that attempt a runs
  for (int a = 0; a <= retries; ++a) {
    attempts += reach;
    reach *= q;
  }
  return trials * attempts;
}

}  // namespace tare::oracle
