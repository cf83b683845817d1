// Arm order: which arm runs in which position inside each block of a campaign. Every block runs
// every arm once; a pair (base_i, head_i) comes from one block, so slow drift of the host cancels
// in the ratio only if no arm always runs first or last. The order used is recorded in results
// by name, and each name is frozen: a changed algorithm gets a new name.
//
//   rotating-reversed-blocks-v1 (default)
//     Blocks come in mirrored pairs. With arms a_0..a_{k-1} and j = floor(b / 2):
//       block 2j     runs the list rotated left by j mod k: a_{j mod k}, a_{j+1 mod k}, ...
//       block 2j + 1 runs the same rotated list reversed.
//     Two arms run AB BA | BA AB | AB BA ...; three arms ABC CBA | BCA ACB | CAB BAC.
//     Over any 2k consecutive blocks starting at a multiple of 2k, every arm takes every position
//     exactly twice (the rotations put each arm in each position once; the reversals once more).
//
//   random-v1
//     A seeded uniform shuffle per block (randomized multiple interleaved trials; Mytkowicz et
//     al., "Producing wrong data without doing anything obviously wrong!", ASPLOS 2009, on why
//     fixed orders bias). Stateless per block, so a resumed campaign reproduces the same orders:
//       z     = SplitMix64 finalizer of (seed + 0x9E3779B97F4A7C15 * (block + 1))
//       rng   = std::mt19937_64(z)   -- its output sequence is fixed by the C++ standard
//       Fisher–Yates: for i = k-1 down to 1: j = UniformBelow(rng, i + 1); swap(a[i], a[j])
//       UniformBelow(rng, m): draw x until x >= (2^64 - m) mod m, return x mod m (unbiased;
//       the OpenBSD arc4random_uniform method).
//     std::shuffle and std::uniform_int_distribution are NOT used: their outputs differ between
//     standard libraries, and a recorded order must replay identically everywhere.
//
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace tare::campaign {

enum class ArmOrder { kRotatingReversedBlocks, kRandom };

inline constexpr std::string_view kRotatingReversedBlocksV1 = "rotating-reversed-blocks-v1";
inline constexpr std::string_view kRandomV1 = "random-v1";

// The recorded, versioned name.
std::string_view ArmOrderName(ArmOrder order);

// Accepts the versioned names and the unversioned aliases "rotating-reversed-blocks" and
// "random" (which mean the current version; the versioned name is what gets recorded).
StatusOr<ArmOrder> ParseArmOrder(std::string_view name);

// Indices 0..arm_count-1 in the order block `block` (0-based) runs them. The seed is used by
// kRandom only. Empty for arm_count <= 0 or block < 0.
std::vector<int> BlockArmOrder(ArmOrder order, int arm_count, int64_t block, uint64_t seed);

// Building blocks of random-v1, exposed for tests and for anyone re-implementing the order.
uint64_t SplitMix64(uint64_t x);
uint64_t UniformBelow(std::mt19937_64& rng, uint64_t bound);  // bound >= 1

}  // namespace tare::campaign
