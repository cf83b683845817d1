// ab_knob: a CPU-bound workload whose amount of work is fixed at compile time, so that `tare ab`
// can be shown (and tested) against a change of known size. The same source is compiled several
// times with different -D values into different executables (see CMakeLists.txt):
//
//   ab_knob_base     AB_KNOB_EXTRA_PERMILLE=0     the base build
//   ab_knob_plus3    AB_KNOB_EXTRA_PERMILLE=30    3% more loop iterations (a regression)
//   ab_knob_plus0_5  AB_KNOB_EXTRA_PERMILLE=5     0.5% more (for the deterministic sim instrument)
//   ab_knob_minus3   AB_KNOB_EXTRA_PERMILLE=-30   3% fewer (an improvement)
//   ab_knob_fat      AB_KNOB_EXTRA_MIB=64         same work, 64 MiB more resident memory
//   ab_knob_plus1, _plus2, _plus5                 +1%, +2%, +5% (bench/sensitivity.sh)
//   ab_knob_plus100  AB_KNOB_EXTRA_PERMILLE=1000  twice the work (tests/e2e/compare: timed runs)
//
// Usage: ab_knob [--work N]   N million loop iterations (default 8, about 10-20 ms here).
//
// The loop is a serial xorshift chain: every iteration depends on the previous one, so its time
// is proportional to the iteration count on any out-of-order CPU, and the compiler cannot
// vectorise it or compute it in closed form. The result is printed so the loop is not removed.
// Process start-up and exit (about 1 ms) are not scaled, so the whole-process change is a little
// smaller than the loop's: +3% of the loop is about +2.8% of wall time at the default work.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef AB_KNOB_EXTRA_PERMILLE
#define AB_KNOB_EXTRA_PERMILLE 0
#endif
#ifndef AB_KNOB_EXTRA_MIB
#define AB_KNOB_EXTRA_MIB 0
#endif

namespace {

uint64_t Spin(uint64_t iterations, uint64_t seed) {
  uint64_t x = seed | 1;
  for (uint64_t i = 0; i < iterations; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  long work_millions = 8;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--work") == 0 && i + 1 < argc) {
      char* end = nullptr;
      work_millions = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || work_millions < 0) {
        std::fprintf(stderr, "ab_knob: --work takes a whole number of millions of iterations\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: ab_knob [--work MILLIONS]\n");
      return 2;
    }
  }
  // Resident memory the "fat" build adds: touched page by page so it counts in peak RSS.
  std::vector<char> ballast(static_cast<size_t>(AB_KNOB_EXTRA_MIB) << 20);
  for (size_t i = 0; i < ballast.size(); i += 4096) ballast[i] = static_cast<char>(i);

  const uint64_t iterations = static_cast<uint64_t>(work_millions) * 1000 * (1000 + AB_KNOB_EXTRA_PERMILLE);
  const uint64_t result = Spin(iterations, static_cast<uint64_t>(argc) + 0x9E3779B97F4A7C15ull);
  std::printf("%016llx %zu\n", static_cast<unsigned long long>(result), ballast.size());
  return 0;
}
