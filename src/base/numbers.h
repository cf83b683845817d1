// The two floating-point values tare's code spells most often.
#pragma once

#include <limits>

namespace tare {

// A value that could not be computed (no pairs yet, a failed arm, an empty sample). Stored as NULL.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace tare
