#include "stats/test_vectors.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

namespace tare::stats::testing {

const nlohmann::json& Vectors() {
  static const nlohmann::json* vectors = [] {
    const char* root = std::getenv("TARE_SOURCE_DIR");
    const std::string path = std::string(root != nullptr ? root : ".") + "/src/stats/testdata/vectors.json";
    std::ifstream in(path);
    if (!in) {
      ADD_FAILURE() << "cannot read " << path << " (set TARE_SOURCE_DIR to the source tree)";
      return new nlohmann::json();
    }
    return new nlohmann::json(nlohmann::json::parse(in));
  }();
  return *vectors;
}

std::vector<double> Doubles(const nlohmann::json& array) {
  std::vector<double> out;
  for (const auto& v : array) out.push_back(v.get<double>());
  return out;
}

::testing::AssertionResult RelNear(double actual, double expected, double rel) {
  if (actual == expected) return ::testing::AssertionSuccess();
  if (std::fabs(actual - expected) <= rel * std::fabs(expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "actual " << actual << " vs expected " << expected << " (relative error "
                                       << std::fabs(actual - expected) / std::fabs(expected) << " > " << rel << ")";
}

}  // namespace tare::stats::testing
