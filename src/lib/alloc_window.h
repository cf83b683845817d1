// Binding to the allocation shim (libtare_alloc.so) from inside a benchmark child. The shim is
// LD_PRELOADed by the runner, never linked, so its functions are found at run time with
// dlsym(RTLD_DEFAULT, ...); an ordinary run of the binary does not need it.
#pragma once

#include <string>

#include "tare/alloc_shim.h"

namespace tare::internal {

struct AllocShim {
  void (*window_begin)(void) = nullptr;
  void (*window_end)(tare_alloc_stats*) = nullptr;
  void (*totals)(tare_alloc_stats*) = nullptr;
};

// The loaded shim, or nullptr with `error` saying why (not preloaded, or a different ABI).
const AllocShim* FindAllocShim(std::string* error);

}  // namespace tare::internal
