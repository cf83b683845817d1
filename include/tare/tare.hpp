// tare — the benchmark-author library. This header is its manual.
//
// Write benchmarks as functions or lambdas taking tare::State&, register them, and end the file
// with TARE_MAIN(). The binary then works two ways:
//   * standalone:  ./bench [--list] [--filter REGEX] [--min-time-ms N] [--repetitions N]
//     runs the benchmarks in this process and prints a table (handy while writing them);
//   * under tare:  `tare run ./bench` starts it once per sample with TARE_CHILD=1 and speaks the
//     child protocol (docs/protocol.md): tare fixes the iteration count, the library opens and
//     closes the measurement window around exactly those iterations (clocks, valgrind client
//     requests, allocation-shim window) and reports on a separate fd, so stdout/stderr stay yours.
//
// Complete example (compiled as examples/tare_basic/tare_basic.cc; a test keeps the two equal):
//
// ---- example begin
// #include <tare/tare.hpp>
//
// #include <algorithm>
// #include <numeric>
// #include <random>
// #include <unordered_map>
// #include <vector>
//
// // A function benchmark with one parameter. Everything before the loop is per-sample setup and is
// // not measured; the loop body runs exactly the iteration count the runner chose.
// static void sort_ints(tare::State& state) {
//   std::vector<int> input(state.arg(0));
//   std::iota(input.begin(), input.end(), 0);
//   std::shuffle(input.begin(), input.end(), std::mt19937(42));
//   std::vector<int> work(input.size());
//   for (auto _ : state) {
//     std::copy(input.begin(), input.end(), work.begin());
//     std::sort(work.begin(), work.end());
//     tare::do_not_optimize(work.data());
//     tare::clobber_memory();
//   }
//   state.set_items_processed(double(state.iterations()) * double(input.size()));
// }
// TARE_BENCHMARK(sort_ints)->range(64, 4096);  // sort_ints/64, sort_ints/512, sort_ints/4096
//
// // A lambda with two parameters, a custom counter (a total: reported per iteration), a gauge
// // (reported as is) and per-iteration latency (p50/p95/p99/max).
// [[maybe_unused]] static tare::Family* hash_lookup =
//     tare::register_benchmark("hash_lookup", [](tare::State& state) {
//       std::unordered_map<int64_t, int64_t> table;
//       for (int64_t i = 0; i < state.arg(0); ++i) table[i * 7] = i;
//       int64_t key = 0;
//       double hits = 0;
//       for (auto _ : state) {
//         hits += double(table.count(key));
//         key = (key + state.arg(1)) % (state.arg(0) * 7);
//       }
//       state.add_counter("hits", hits);
//       state.set_gauge("table_size", double(table.size()));
//     })
//         ->arg_names({"n", "stride"})
//         ->args({1000, 7})
//         ->args({1000, 3})
//         ->record_latency();  // hash_lookup/n:1000/stride:7, hash_lookup/n:1000/stride:3
//
// // Per-sample hooks, also outside the window: here they only reset a scratch buffer.
// static std::vector<char> scratch;
// static void fill_bytes(tare::State& state) {
//   for (auto _ : state) {
//     std::fill(scratch.begin(), scratch.end(), char(1));
//     tare::do_not_optimize(scratch.data());
//   }
//   state.set_bytes_processed(double(state.iterations()) * double(scratch.size()));
// }
// TARE_BENCHMARK(fill_bytes)
//     ->arg_list({1024, 65536})
//     ->setup([](const tare::State& state) { scratch.assign(size_t(state.arg(0)), 0); })
//     ->teardown([](const tare::State&) { std::vector<char>().swap(scratch); });
//
// TARE_MAIN();
// ---- example end
//
// Rules of measurement (docs/library.md has the details):
//   * The window is the loop only. Setup before the loop, teardown after it, and the
//     setup()/teardown() hooks are never measured, under every instrument.
//   * Counters (items, bytes, add_counter) are totals over the window; tare divides by the
//     iteration count. Gauges (set_gauge) are reported as they are.
//   * Results the compiler can prove unused may be deleted: pass them to tare::do_not_optimize, and
//     call tare::clobber_memory() to force pending stores to memory.
//   * Google Benchmark sources: include <tare/gbench_compat.hpp> instead of <benchmark/benchmark.h>.
#pragma once

#include <type_traits>

#include "tare/family.hpp"
#include "tare/state.hpp"

namespace tare {

// Forces the value of `value` to be computed and treated as read and written by unknown code
// (Google Benchmark's DoNotOptimize technique: an empty asm with the value as an operand and a
// "memory" clobber). It does not stop the compiler from precomputing `value` itself.
template <class T>
inline __attribute__((always_inline)) void do_not_optimize(T const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}
template <class T>
inline __attribute__((always_inline)) void do_not_optimize(T& value) {
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(T*)) {
#if defined(__clang__)
    asm volatile("" : "+r,m"(value) : : "memory");
#else
    asm volatile("" : "+m,r"(value) : : "memory");
#endif
  } else {
    asm volatile("" : "+m"(value) : : "memory");
  }
}

// A compiler barrier: every pending store to memory happens before it, every load after it.
inline __attribute__((always_inline)) void clobber_memory() { asm volatile("" : : : "memory"); }

// The library's main: child protocol when TARE_CHILD=1, standalone otherwise. Returns the
// process exit status (0 ok, 2 bad command line, 3 a benchmark or protocol error).
int run_main(int argc, char** argv);

}  // namespace tare

#define TARE_PRIVATE_CAT2(a, b) a##b
#define TARE_PRIVATE_CAT(a, b) TARE_PRIVATE_CAT2(a, b)
#define TARE_PRIVATE_NAME(n) TARE_PRIVATE_CAT(tare_private_family_, n)

// TARE_BENCHMARK(fn)->arg(8)…; registers the function `fn` under its own name.
#define TARE_BENCHMARK(fn) \
  [[maybe_unused]] static ::tare::Family* TARE_PRIVATE_NAME(__COUNTER__) = ::tare::register_benchmark(#fn, fn)

// Defines main() (alternatively link the tare_bench_main library).
#define TARE_MAIN() \
  int main(int argc, char** argv) { return ::tare::run_main(argc, argv); } \
  static_assert(true, "")
