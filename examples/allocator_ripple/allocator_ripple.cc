// The allocator ripple: three identical benchmarks whose cost depends on which ran before them in
// the same process.
//
// Each iteration callocs 4 MiB, touches every page and frees it. In a fresh process glibc serves
// a request that large with a fresh mmap (it is above M_MMAP_THRESHOLD, 128 KiB by default), and
// fresh mmap pages are already zero, so calloc does no clearing. Freeing that chunk raises the
// dynamic mmap threshold to its size (glibc malloc.c, "dynamic threshold": free of an mmapped
// chunk sets mp_.mmap_threshold = chunksize). Every later 4 MiB request in the process is then
// served from the heap, and calloc must clear it with memset — hundreds of thousands of
// instructions that the first benchmark never paid.
//
// So the three benchmarks cost the same only when each runs in a fresh process, as tare does by
// default. Compare, with the sim instrument (callgrind instruction counts):
//   isolated:    TARE_BENCH=zeroed_buffer/1, then /2, then /3, one process each
//   one process: TARE_BENCH=$'zeroed_buffer/1\nzeroed_buffer/2\nzeroed_buffer/3'
// (docs/protocol.md, "Several benchmarks in one process"; the runner's --no-isolation).
// src/lib/allocator_ripple_test.cc runs both under valgrind and asserts the difference.
#include <tare/tare.hpp>

#include <cstdlib>

static void zeroed_buffer(tare::State& state) {
  constexpr size_t kBytes = size_t{4} << 20;
  for (auto _ : state) {
    char* buffer = static_cast<char*>(std::calloc(1, kBytes));
    for (size_t i = 0; i < kBytes; i += 4096) buffer[i] = 1;
    tare::do_not_optimize(buffer);
    std::free(buffer);
  }
}
// The parameter only tells the three apart; every instance does the same work.
TARE_BENCHMARK(zeroed_buffer)->arg_list({1, 2, 3});

TARE_MAIN();
