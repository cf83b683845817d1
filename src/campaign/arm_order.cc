#include "campaign/arm_order.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace tare::campaign {

std::string_view ArmOrderName(ArmOrder order) {
  switch (order) {
    case ArmOrder::kRotatingReversedBlocks:
      return kRotatingReversedBlocksV1;
    case ArmOrder::kRandom:
      return kRandomV1;
  }
  return "unknown";
}

StatusOr<ArmOrder> ParseArmOrder(std::string_view name) {
  if (name == kRotatingReversedBlocksV1 || name == "rotating-reversed-blocks") {
    return ArmOrder::kRotatingReversedBlocks;
  }
  if (name == kRandomV1 || name == "random") return ArmOrder::kRandom;
  return Status::InvalidArgument("unknown arm order '" + std::string(name) + "'; use '" +
                                 std::string(kRotatingReversedBlocksV1) + "' (default) or '" + std::string(kRandomV1) +
                                 "'");
}

uint64_t SplitMix64(uint64_t x) {
  // Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014: the
  // finalizer of SplitMix64 (constants from the reference implementation).
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

uint64_t UniformBelow(std::mt19937_64& rng, uint64_t bound) {
  // (2^64 - bound) mod bound == 2^64 mod bound in unsigned arithmetic: the count of low values
  // that would make x mod bound favour small results; rejecting them leaves a multiple of bound.
  const uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const uint64_t x = rng();
    if (x >= threshold) return x % bound;
  }
}

std::vector<int> BlockArmOrder(ArmOrder order, int arm_count, int64_t block, uint64_t seed) {
  if (arm_count <= 0 || block < 0) return {};
  std::vector<int> arms(static_cast<size_t>(arm_count));
  std::iota(arms.begin(), arms.end(), 0);
  switch (order) {
    case ArmOrder::kRotatingReversedBlocks: {
      const int64_t j = block / 2;
      const int64_t shift = j % arm_count;
      std::rotate(arms.begin(), arms.begin() + shift, arms.end());
      if (block % 2 == 1) std::reverse(arms.begin(), arms.end());
      break;
    }
    case ArmOrder::kRandom: {
      std::mt19937_64 rng(SplitMix64(seed + 0x9E3779B97F4A7C15ULL * (static_cast<uint64_t>(block) + 1)));
      for (int i = arm_count - 1; i >= 1; --i) {
        const uint64_t j = UniformBelow(rng, static_cast<uint64_t>(i) + 1);
        std::swap(arms[static_cast<size_t>(i)], arms[static_cast<size_t>(j)]);
      }
      break;
    }
  }
  return arms;
}

}  // namespace tare::campaign
