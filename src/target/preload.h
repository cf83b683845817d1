// The libraries tare preloads into the programs it measures — the allocation shim of `--instrument
// mem` (src/lib/alloc_shim) and the heap-layout library of `tare ab --layouts` (src/lib/heap_shift.c)
// — where they are found, how they join a program's LD_PRELOAD, and what the shim reports back.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::target {

// libtare_alloc.so: $TARE_ALLOC_SHIM, then beside the running executable (and ../lib/tare/), then
// the build tree. FailedPrecondition naming what to do when it is missing.
StatusOr<std::string> FindAllocShim();
// libtare_heap_shift.so (tare ab --layouts: src/lib/heap_shift.c), found the same way
// ($TARE_HEAP_SHIFT_LIB first).
StatusOr<std::string> FindHeapShift();
// Puts `library` first in env's LD_PRELOAD (KEY=VALUE entries), adding the variable when absent: one
// LD_PRELOAD, so a library the program's environment already preloads stays preloaded too.
void AddPreload(std::vector<std::string>* env, const std::string& library);

// The allocation shim's totals for process `pid` from its output file at `path` (one JSON line per
// process at exit; the file is the measured program's to write, so every field is checked) into
// `values` as mem.* metrics. DataLoss, saying why, when the process left no readable line.
Status ReadAllocTotals(const std::string& path, int pid, std::map<std::string, double>* values);

}  // namespace tare::target
