// tare::run_main: the entry point every tare benchmark binary goes through (TARE_MAIN,
// BENCHMARK_MAIN, or the tare_bench_main library), and the protocol marker that lets the runner
// recognise such a binary by scanning its file instead of running an unknown program.
#include "lib/child_protocol.h"
#include "lib/standalone.h"
#include "tare/tare.hpp"

namespace tare {
namespace {

// Kept in every binary that links this object (which run_main() guarantees): `used` stops the
// compiler from dropping it, `retain` stops the linker's --gc-sections from dropping it.
[[gnu::used, gnu::retain]] const char kProtocolMarker[] = "TARE_CHILD_PROTOCOL_V1";

}  // namespace

int run_main(int argc, char** argv) {
  if (internal::ChildRequested()) return internal::RunChildProtocol();
  return internal::RunStandalone(argc, argv);
}

}  // namespace tare
