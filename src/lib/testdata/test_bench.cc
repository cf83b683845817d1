// Benchmarks with known behaviour for the library's tests (src/lib/*_test.cc): exact allocation
// patterns, exact counters, known latency outliers, and every error path of the protocol.
#include <tare/tare.hpp>

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

// Per iteration: three blocks whose glibc usable sizes equal their requested sizes (24, 40, 1000:
// chunk = request + 8 rounded to 16), all live at once, then freed. Setup allocates 1 MiB outside
// the window. Counters: items = 3 per iteration (total), gauge "blocks_per_iteration" = 3.
static void three_blocks(tare::State& state) {
  std::vector<char> setup_memory(1 << 20, 1);
  tare::do_not_optimize(setup_memory.data());
  for (auto _ : state) {
    void* a = std::malloc(24);
    void* b = std::malloc(40);
    void* c = std::malloc(1000);
    tare::do_not_optimize(a);
    tare::do_not_optimize(b);
    tare::do_not_optimize(c);
    std::free(a);
    std::free(b);
    std::free(c);
  }
  state.set_items_processed(3.0 * double(state.iterations()));
  state.add_counter("blocks", 2.0 * double(state.iterations()));
  state.add_counter("blocks", 1.0 * double(state.iterations()));
  state.set_gauge("blocks_per_iteration", 3);
}
TARE_BENCHMARK(three_blocks);

// Allocations made while timing is paused are excluded from the window's counts.
static void paused_allocations(tare::State& state) {
  for (auto _ : state) {
    state.pause_timing();
    void* hidden = std::malloc(4000);
    tare::do_not_optimize(hidden);
    std::free(hidden);
    state.resume_timing();
    void* counted = std::malloc(56);
    tare::do_not_optimize(counted);
    std::free(counted);
  }
}
TARE_BENCHMARK(paused_allocations);

// 10 million iterations of work in setup, a tiny loop: the window must not contain the setup.
static void heavy_setup(tare::State& state) {
  uint64_t x = 0;
  for (int i = 0; i < 10000000; ++i) tare::do_not_optimize(x += uint64_t(i));
  for (auto _ : state) tare::do_not_optimize(x += 1);
}
TARE_BENCHMARK(heavy_setup);

// 100000 loop iterations of paused work per iteration, almost nothing timed.
static void paused_heavy(tare::State& state) {
  uint64_t x = 0;
  for (auto _ : state) {
    state.pause_timing();
    for (int i = 0; i < 100000; ++i) tare::do_not_optimize(x += uint64_t(i));
    state.resume_timing();
    tare::do_not_optimize(x += 1);
  }
}
TARE_BENCHMARK(paused_heavy);

// Each iteration sleeps 2 ms while paused and does almost nothing while timed.
static void paused_sleep(tare::State& state) {
  for (auto _ : state) {
    state.pause_timing();
    usleep(2000);
    state.resume_timing();
  }
}
TARE_BENCHMARK(paused_sleep);

// Iterations 49 and 99 (of each 100) sleep 2 ms; the rest do nothing: with 100 iterations the
// nearest-rank p50 and p95 are fast and p99 and max are slow.
[[maybe_unused]] static tare::Family* latency = tare::register_benchmark("latency", [](tare::State& state) {
                                                  int i = 0;
                                                  for (auto _ : state) {
                                                    if (i % 50 == 49) usleep(2000);
                                                    ++i;
                                                  }
                                                })->record_latency();

// Busy-waits at least 10 us per iteration (calibration).
static void ten_microseconds(tare::State& state) {
  for (auto _ : state) {
    timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
      clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 10000);
  }
}
TARE_BENCHMARK(ten_microseconds);

// Does nothing at all: calibration runs into the iteration cap.
static void empty_loop(tare::State& state) {
  for (auto _ : state) {
  }
}
TARE_BENCHMARK(empty_loop);

// Writes to its own stdout and stderr, which must stay the user's.
static void chatty(tare::State& state) {
  std::printf("hello from the benchmark\n");
  std::fprintf(stderr, "warning from the benchmark\n");
  for (auto _ : state) tare::clobber_memory();
}
TARE_BENCHMARK(chatty);

// Parameters and per-sample hooks: setup sets a value the body checks, outside the window.
static int hook_value = 0;
static void hooked(tare::State& state) {
  if (hook_value != state.arg(0) * 10) state.skip_with_error("setup hook did not run first");
  for (auto _ : state) tare::do_not_optimize(hook_value);
  state.set_gauge("product", double(state.arg(0) * state.arg(1)));
}
TARE_BENCHMARK(hooked)
    ->args({2, 3})
    ->args({4, 5})
    ->setup([](const tare::State& s) { hook_value = int(s.arg(0) * 10); })
    ->teardown([](const tare::State&) { hook_value = -1; });

// Error paths.
static void skips(tare::State& state) {
  state.skip_with_error("input file is missing");
  for (auto _ : state) {
  }
}
TARE_BENCHMARK(skips);

static void never_loops(tare::State& state) {}
TARE_BENCHMARK(never_loops);

static void breaks_early(tare::State& state) {
  for (auto _ : state) break;
}
TARE_BENCHMARK(breaks_early);

static void loops_twice(tare::State& state) {
  for (auto _ : state) {
  }
  for (auto _ : state) {
  }
}
TARE_BENCHMARK(loops_twice);

static void throws_in_loop(tare::State& state) {
  int i = 0;
  for (auto _ : state) {
    if (++i == 2) throw std::runtime_error("disk on fire");
  }
}
TARE_BENCHMARK(throws_in_loop);

static void throws_in_setup(tare::State& state) {
  for (auto _ : state) {
  }
}
TARE_BENCHMARK(throws_in_setup)->setup([](const tare::State&) { throw std::runtime_error("no fixture data"); });

static void pauses_twice(tare::State& state) {
  for (auto _ : state) {
    state.pause_timing();
    state.pause_timing();
    state.resume_timing();
  }
}
TARE_BENCHMARK(pauses_twice);

static void keep_running_loop(tare::State& state) {
  uint64_t n = 0;
  while (state.keep_running()) ++n;
  state.set_gauge("body_runs", double(n));
}
TARE_BENCHMARK(keep_running_loop);

TARE_MAIN();
