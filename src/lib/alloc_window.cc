#include "lib/alloc_window.h"

#include <dlfcn.h>

namespace tare::internal {

const AllocShim* FindAllocShim(std::string* error) {
  static AllocShim shim;
  auto version = reinterpret_cast<int (*)(void)>(dlsym(RTLD_DEFAULT, "tare_alloc_abi_version"));
  shim.window_begin = reinterpret_cast<void (*)(void)>(dlsym(RTLD_DEFAULT, "tare_alloc_window_begin"));
  shim.window_end = reinterpret_cast<void (*)(tare_alloc_stats*)>(dlsym(RTLD_DEFAULT, "tare_alloc_window_end"));
  shim.totals = reinterpret_cast<void (*)(tare_alloc_stats*)>(dlsym(RTLD_DEFAULT, "tare_alloc_totals"));
  if (!version || !shim.window_begin || !shim.window_end || !shim.totals) {
    *error =
        "the allocation shim is not loaded (tare_alloc_window_begin not found): TARE_INSTRUMENT=mem "
        "needs LD_PRELOAD=<path>/libtare_alloc.so, which `tare run --instrument mem` sets";
    return nullptr;
  }
  if (version() != TARE_ALLOC_ABI_VERSION) {
    *error = "the preloaded allocation shim speaks ABI " + std::to_string(version()) + ", this binary needs " +
             std::to_string(TARE_ALLOC_ABI_VERSION) + "; use the libtare_alloc.so built with the same tare";
    return nullptr;
  }
  return &shim;
}

}  // namespace tare::internal
