// call_cost: two small functions inlined in one build and called out of line in the other, for
// `tare attribute`'s inlining findings on real compiler output (docs/attribute.md, issue 24):
//
//   call_cost_inline   Mix() and ReadUint32LE() forced inline into their callers
//   call_cost_outline  both kept out of line (noinline, noclone)
//
// Mix() is an 8-instruction mixer called from MixAll() 200000 times: out of line, the call's own
// instructions (argument moves, call, ret) are half of what the caller gives up, so the caller's
// self cost falls by about half of Mix()'s — outside a 25% "the cost moved" tolerance. Sum8()
// keeps eight running sums live across every 4-byte load: out of line, the call costs more than
// the one-instruction load it replaces, so the caller's self cost RISES with the new function's
// (the register-pressure case of background report 01).
//
// Usage: call_cost [CALLS]   (default 200000). Prints checksums so nothing is optimised away.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if CALL_COST_OUTLINE
#define CALL_COST_LINKAGE static __attribute__((noinline, noclone))
#else
#define CALL_COST_LINKAGE static inline __attribute__((always_inline))
#endif

CALL_COST_LINKAGE uint64_t Mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

CALL_COST_LINKAGE uint32_t ReadUint32LE(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

__attribute__((noinline)) uint64_t MixAll(long n) {
  uint64_t h = 1;
  for (long i = 0; i < n; ++i) h = Mix(h, static_cast<uint64_t>(i));
  return h;
}

__attribute__((noinline)) uint64_t Sum8(const uint8_t* data, long words) {
  uint32_t a0 = 0, a1 = 1, a2 = 2, a3 = 3, a4 = 4, a5 = 5, a6 = 6, a7 = 7;
  for (long i = 0; i + 8 <= words; i += 8) {
    const uint8_t* p = data + 4 * i;
    a0 += ReadUint32LE(p);
    a1 ^= ReadUint32LE(p + 4);
    a2 += ReadUint32LE(p + 8);
    a3 ^= ReadUint32LE(p + 12);
    a4 += ReadUint32LE(p + 16);
    a5 ^= ReadUint32LE(p + 20);
    a6 += ReadUint32LE(p + 24);
    a7 ^= ReadUint32LE(p + 28);
    a0 = (a0 << 3) | (a0 >> 29);
    a4 = (a4 << 5) | (a4 >> 27);
  }
  return (uint64_t{a0} ^ a1 ^ a2 ^ a3) + (uint64_t{a4} ^ a5 ^ a6 ^ a7);
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 200000;
  static uint8_t buffer[4 * 4096];
  for (size_t i = 0; i < sizeof buffer; ++i) buffer[i] = static_cast<uint8_t>(i * 131 + 7);
  uint64_t sums = 0;
  for (int r = 0; r < 10; ++r) sums += Sum8(buffer, 4096);
  std::printf("%llu %llu\n", static_cast<unsigned long long>(MixAll(n)), static_cast<unsigned long long>(sums));
  return 0;
}
