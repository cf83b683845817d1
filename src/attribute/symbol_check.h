// Backing the inlining rule's findings (attribution.h) with the executables' symbol tables, and
// comparing one function's code in two builds (`--asm`).
//
// A function inlined at every call site and not needed otherwise (static, or inline) leaves no
// symbol: base defines it with a size, head does not. That confirms "inlined into CALLER". A
// symbol still present in head (an out-of-line copy kept for other callers or for its address)
// does not contradict the call counts, but it does not confirm them either, and the note says so.
// The mirror holds for "no longer inlined". Names are matched as callgrind and `nm -C` both
// demangle them (FindCodeSymbols).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attribute/asm_diff.h"
#include "attribute/attribution.h"
#include "attribute/binutils.h"

namespace tare::attribute {

// Fills symbol_check and symbol_note of every inlining finding in `result`. `base_symbols` and
// `head_symbols` are the tables of the two executables, or an error saying why there is none
// (the note then says "not checked: <why>").
void CheckInliningSymbols(const StatusOr<std::vector<Symbol>>& base_symbols,
                          const StatusOr<std::vector<Symbol>>& head_symbols, AttributionResult* result);

// One function's normalised code in two builds.
struct AsmComparison {
  std::string function;     // as asked
  std::string base_symbol;  // the symbol found (demangled), with its size
  std::string head_symbol;
  uint64_t base_bytes = 0;
  uint64_t head_bytes = 0;
  size_t base_lines = 0;  // normalised instruction and label lines
  size_t head_lines = 0;
  std::vector<DiffLine> diff;
  bool identical = false;
};

// Finds `function` in both executables' symbol tables (exact demangled name, or name without its
// parameter list), disassembles it and diffs the normalised code. NotFound naming the executable
// when a side does not define it (with the matches' count when the name is ambiguous:
// InvalidArgument listing them), FailedPrecondition for a stripped executable.
StatusOr<AsmComparison> CompareFunctionAsm(Binutils& tools, const std::string& base_exe, const std::string& head_exe,
                                           const std::string& function);

}  // namespace tare::attribute
