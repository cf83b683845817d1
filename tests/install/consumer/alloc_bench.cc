// A consumer's benchmark on tare's own library: one allocation of 4000 bytes per iteration, so
// `tare run --instrument mem` must report mem.allocs 1 and mem.bytes 4000 per iteration.
#include <tare/tare.hpp>

#include <cstdlib>

static void alloc_4000(tare::State& state) {
  for (auto _ : state) {
    void* p = std::malloc(4000);
    tare::do_not_optimize(p);
    std::free(p);
  }
}
TARE_BENCHMARK(alloc_4000);

#ifndef NO_TARE_MAIN
TARE_MAIN();
#endif
