// What kind of program a target is, decided without running it: an unknown program must never be
// started with flags it may not understand. The executable's string tables (.dynstr, .strtab) and
// allocated data (.rodata) are scanned — not its code or debug information, most of a binary built
// with -g; the whole file when its section headers cannot be read:
//  - tare benchmark binaries embed the marker string "TARE_CHILD_PROTOCOL_V1" (include/tare);
//  - Google Benchmark binaries carry its symbols: "_ZN9benchmark" (the mangled namespace, present in
//    the dynamic symbol table when linked against libbenchmark.so and in the symbol table when
//    static) or, for stripped static binaries, its flag name "benchmark_list_tests";
//  - anything else (including scripts) is a plain command, measured as a whole process.
#pragma once

#include <string>

#include "base/status.h"
#include "model/target.h"

namespace tare::target {

// Scans the file at `path` (which must exist). Never executes it.
StatusOr<TargetKind> DetectTargetKind(const std::string& path);

}  // namespace tare::target
