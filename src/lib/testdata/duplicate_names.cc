// Two different functions registered under one name: the binary cannot address them, and says so.
#include <tare/tare.hpp>

static void first(tare::State& state) {
  for (auto _ : state) {
  }
}
static void second(tare::State& state) {
  for (auto _ : state) tare::clobber_memory();
}
[[maybe_unused]] static tare::Family* a = tare::register_benchmark("same", first)->arg(1);
[[maybe_unused]] static tare::Family* b = tare::register_benchmark("same", second)->arg(1);

TARE_MAIN();
