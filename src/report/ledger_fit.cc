#include "report/ledger_fit.h"

#include <algorithm>

#include <fmt/core.h>

namespace tare::report {
namespace {

std::string CutLine(const LedgerBlock& b, const std::string& where) {
  return fmt::format("\n_… and {} more {}: {}._\n", b.cut, b.row_noun, where);
}

size_t Total(const std::vector<LedgerBlock>& blocks) {
  size_t n = 0;
  for (const auto& b : blocks) n += b.Size();
  return n;
}

}  // namespace

size_t LedgerBlock::Size() const {
  if (left_out) return stand_in.size();
  size_t n = head.size() + tail.size();
  for (size_t i = 0; i + cut < rows.size(); ++i) n += rows[i].size();
  // The cut line's length depends on its count's digits: count it at its longest.
  if (cut > 0) n += 96 + row_noun.size();
  return n;
}

std::string LedgerBlock::Text() const {
  if (left_out) return stand_in;
  std::string out = head;
  for (size_t i = 0; i + cut < rows.size(); ++i) out += rows[i];
  return out;  // the tail and the cut line are added by JoinBlocks, which knows `where`
}

bool FitBlocks(std::vector<LedgerBlock>& blocks, size_t max_chars, const std::string& where) {
  for (auto& b : blocks) {
    b.cut = 0;
    b.left_out = false;
  }
  if (max_chars == 0) return false;
  const size_t where_size = where.size();
  auto total = [&] {
    size_t n = Total(blocks);
    for (const auto& b : blocks) n += b.cut > 0 && !b.left_out ? where_size : 0;
    return n;
  };
  if (total() <= max_chars) return false;
  int last_rank = 0;
  for (const auto& b : blocks) last_rank = std::max(last_rank, b.rank);
  for (int rank = 1; rank <= last_rank; ++rank) {
    for (size_t i = 0; i < blocks.size(); ++i) {
      LedgerBlock& b = blocks[i];
      if (b.rank != rank || b.left_out) continue;
      if (b.cut_rows) {
        // Cut the fewest rows that bring the total under the limit (all of them if none does).
        while (b.cut < b.rows.size() && total() > max_chars) ++b.cut;
        if (total() <= max_chars) return true;
      }
      if (!b.stand_in.empty()) {
        b.left_out = true;
        for (size_t k = i + 1; k < blocks.size() && blocks[k].goes_with_previous; ++k) {
          blocks[k].left_out = true;
          blocks[k].stand_in.clear();
        }
      }
      if (total() <= max_chars) return true;
    }
  }
  return true;
}

std::string JoinBlocks(const std::vector<LedgerBlock>& blocks, const std::string& where) {
  std::string out;
  for (const auto& b : blocks) {
    out += b.Text();
    if (b.left_out) continue;
    if (b.cut > 0) out += CutLine(b, where);
    out += b.tail;
  }
  return out;
}

}  // namespace tare::report
