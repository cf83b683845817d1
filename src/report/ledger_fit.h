// Fitting the ledger under a size limit (report/ledger.h, LedgerOptions::max_chars): GitHub refuses a
// pull-request comment over 65,536 characters, and a 500-cell cohort's whole ledger is several
// times that. The ledger is a list of blocks; when it is too long, blocks are shortened in the order
// of their rank (1 first; 0: never), each first losing rows from its end ("… and 12 more rows:
// <where>") where it has rows, then, if still too long, replaced by its one-line stand-in. If the
// blocks kept whole (rank 0: the title, the banners, how it was measured) are still too long —
// 800 broken cells, a 30,000-character name (issue 48, item 4) — the longest of them are cut
// short, at a character's boundary, with "… cut for size: <where>": the limit holds for every
// ledger.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tare::report {

struct LedgerBlock {
  std::string head{};               // printed whenever the block is
  std::vector<std::string> rows{};  // each ends with '\n'; may be cut from the end (cut_rows)
  std::string tail{};               // after the rows
  std::string stand_in{};           // replaces the whole block when it is left out ("" : never left out)
  int rank = 0;                     // shortening order: 1 first, 2 next, ...; 0: kept as it is
  bool cut_rows = false;            // rows may be cut before the block is left out
  std::string row_noun = "rows";    // "… and 12 more <row_noun>"
  bool goes_with_previous = false;  // left out (printing nothing) when the block before it is

  size_t cut = 0;                // rows left out (FitBlocks sets it)
  bool left_out = false;         // the stand-in is printed instead (FitBlocks sets it)
  size_t truncated_to = kWhole;  // bytes of the head kept, the rest cut for size (FitBlocks sets it)
  static constexpr size_t kWhole = static_cast<size_t>(-1);

  size_t Size() const;       // as printed, a cut line counted at its longest
  std::string Text() const;  // head and the rows kept, or the stand-in
};

// Shortens `blocks` until their text is at most `max_chars` bytes (0: no limit), naming `where` the
// whole ledger is. Returns whether anything was cut or left out. The result is longer than
// `max_chars` only when `where` alone does not fit in it.
bool FitBlocks(std::vector<LedgerBlock>& blocks, size_t max_chars, const std::string& where);

// The blocks' text as FitBlocks left them, a cut block's rows followed by its "… and N more" line.
std::string JoinBlocks(const std::vector<LedgerBlock>& blocks, const std::string& where);

}  // namespace tare::report
