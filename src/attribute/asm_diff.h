// The machine code of one function in two builds, made comparable and diffed: `tare attribute
// --asm FUNCTION` (docs/attribute.md, "--asm").
//
// objdump prints every instruction at its address, and a function that only moved (something was
// added before it) changes on nearly every line: its own address column, jump targets inside it,
// call targets, rip-relative displacements. NormalizeDisassembly() keeps what the code *does*:
//   - the address column and objdump's headers are dropped (raw bytes are not printed:
//     --no-show-raw-insn);
//   - a jump to an address inside the function becomes a label, numbered in address order
//     ("jne L2"), and "L2:" is written before the instruction it lands on;
//   - a jump or call out of the function keeps only the symbol: "call <Checksum(...)>" (no address,
//     no "+0x.." offset);
//   - a rip-relative displacement becomes "X(%rip)", and objdump's "# 2004 <sym+0x4>" comment
//     keeps only "<sym+0x4>";
//   - nops (alignment padding, which depends on where the function starts) are dropped;
//   - runs of blanks become one space.
// DiffLines() is a longest-common-subsequence line diff.
//
// Pure functions.
#pragma once

#include <string>
#include <vector>

namespace tare::attribute {

std::vector<std::string> NormalizeDisassembly(const std::string& objdump_text);

struct DiffLine {
  char op = ' ';  // ' ' in both, '-' base only, '+' head only
  std::string text;
};

// Lines of `base` and `head` in order, each marked. Common prefix and suffix are matched first; the
// middle by LCS when it has at most kMaxDiffCells line pairs, otherwise all of it is marked
// removed and added.
inline constexpr size_t kMaxDiffCells = 16'000'000;
std::vector<DiffLine> DiffLines(const std::vector<std::string>& base, const std::vector<std::string>& head);

// True when some line is '-' or '+'.
bool HasChanges(const std::vector<DiffLine>& diff);

// The changed lines with `context` unchanged lines around each change; "..." between hunks.
std::vector<DiffLine> ChangedHunks(const std::vector<DiffLine>& diff, size_t context = 3);

}  // namespace tare::attribute
