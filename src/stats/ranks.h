// Ranks with ties averaged (scipy.stats.rankdata(method='average')), shared by the rank-based
// statistics (Mann–Whitney, Spearman). Internal to tare_stats.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tare::stats {

// 1-based ranks of values, ties given the mean of the ranks they span. No NaN allowed.
std::vector<double> AverageRanks(std::span<const double> values);

// sum over groups of tied values of (t^3 - t), t the group size: the tie correction term.
double TieTerm(std::span<const double> values);

}  // namespace tare::stats
