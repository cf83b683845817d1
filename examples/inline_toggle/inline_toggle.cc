// inline_toggle: one small program built three ways from this one source, for `tare attribute`
// (docs/attribute.md) and its tests. The builds differ in one thing each:
//
//   inline_toggle_outline  Checksum() is kept out of line (noinline): Work() calls it every round
//   inline_toggle_inline   Checksum() is forced inline into Work(): no call, no symbol
//   inline_toggle_moved    as _outline, plus an unused function, which g++ 12 -O2 places between
//                          Checksum() and Work(): Work()'s code is the same at another address
//                          (the tests check that it moved)
//
// Usage: inline_toggle [ROUNDS]   (default 20000). Prints a checksum so nothing is optimised away.
// Under `valgrind --tool=callgrind`, _outline against _inline shows the call overhead the
// inlining saves, and Checksum()'s cost moving into Work().
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if INLINE_TOGGLE_INLINE
#define CHECKSUM_LINKAGE static inline __attribute__((always_inline))
#else
// noclone too: otherwise GCC may specialise the function into "Checksum [clone .constprop.0]".
#define CHECKSUM_LINKAGE static __attribute__((noinline, noclone))
#endif

#if INLINE_TOGGLE_MOVED
// Never called; `used` keeps it in the binary, so the functions placed after it move.
extern "C" __attribute__((used, noinline)) uint64_t inline_toggle_padding(uint64_t x) {
  for (int i = 0; i < 7; ++i) x = x * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(i);
  return x ^ (x >> 29);
}
#endif

// FNV-1a over `n` bytes, starting from `seed`: one multiply per byte and a dependency chain, so
// the compiler cannot vectorise it and its cost is the same inlined or not.
CHECKSUM_LINKAGE uint64_t Checksum(const uint8_t* data, size_t n, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ULL ^ seed;
  for (size_t i = 0; i < n; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

__attribute__((noinline)) uint64_t Work(const uint8_t* data, size_t n, long rounds) {
  uint64_t acc = 0;
  for (long r = 0; r < rounds; ++r) acc += Checksum(data, n, static_cast<uint64_t>(r));
  return acc;
}

int main(int argc, char** argv) {
  long rounds = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 20000;
  static uint8_t buffer[16];
  uint32_t x = 12345;
  for (auto& b : buffer) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 16);
  }
  std::printf("%llu\n", static_cast<unsigned long long>(Work(buffer, sizeof buffer, rounds)));
  return 0;
}
