#include "stats/ranks.h"

#include <algorithm>
#include <numeric>

namespace tare::stats {

std::vector<double> AverageRanks(std::span<const double> values) {
  const size_t n = values.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(n);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && values[order[j + 1]] == values[order[i]]) ++j;
    // Positions i..j (0-based) hold ranks i+1..j+1; their mean is (i + j)/2 + 1.
    const double r = 0.5 * static_cast<double>(i + j) + 1.0;
    for (size_t t = i; t <= j; ++t) ranks[order[t]] = r;
    i = j + 1;
  }
  return ranks;
}

double TieTerm(std::span<const double> values) {
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  double term = 0;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[i]) ++j;
    const double t = static_cast<double>(j - i + 1);
    term += t * t * t - t;
    i = j + 1;
  }
  return term;
}

}  // namespace tare::stats
