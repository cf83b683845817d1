// The per-process randomness of oracle_fixture's "marginal" mode, shared with the self-test so the
// test can state (and check) what the seeded sequence of processes will show.
#pragma once

#include <cstdint>

namespace tare::oracle::testing {

// splitmix64 (Steele, Lea & Flood 2014): a fixed, portable mixing function.
inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform [0, 1) draw for the fixture's invocation `index` (0-based) under `seed`.
inline double FixtureDraw(uint64_t seed, uint64_t index) {
  return static_cast<double>(SplitMix64(seed * 1000003ull + index) >> 11) * 0x1.0p-53;
}

}  // namespace tare::oracle::testing
