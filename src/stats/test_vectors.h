// Test-only: the reference vectors in testdata/vectors.json (generated from scipy by
// testdata/gen_vectors.py; see the "source" field of each section for the function used).
#pragma once

#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace tare::stats::testing {

// The parsed file; fails the test (ADD_FAILURE) and returns null JSON if it cannot be read.
const nlohmann::json& Vectors();

std::vector<double> Doubles(const nlohmann::json& array);

// |actual - expected| <= rel * |expected| (or exactly equal, for 0 and infinities).
::testing::AssertionResult RelNear(double actual, double expected, double rel);

}  // namespace tare::stats::testing
