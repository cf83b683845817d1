#include "report/ledger_fit.h"

#include <algorithm>

#include <fmt/core.h>

namespace tare::report {
namespace {

std::string CutLine(const LedgerBlock& b, const std::string& where) {
  return fmt::format("\n_… and {} more {}: {}._\n", b.cut, b.row_noun, where);
}

// Where a head cut for size ends: "… cut for size: <where>." (JoinBlocks).
std::string TruncationLine(const std::string& where) { return fmt::format("\n\n_… cut for size: {}._\n\n", where); }
constexpr size_t kTruncationLineBytes = 32;  // the line less `where`, counted at its longest

// `n` or fewer bytes of `text`, never ending inside a UTF-8 character.
size_t CharBoundary(const std::string& text, size_t n) {
  if (n >= text.size()) return text.size();
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return n;
}

size_t Total(const std::vector<LedgerBlock>& blocks) {
  size_t n = 0;
  for (const auto& b : blocks) n += b.Size();
  return n;
}

}  // namespace

size_t LedgerBlock::Size() const {
  if (left_out) return stand_in.size();
  if (truncated_to != kWhole) return truncated_to + kTruncationLineBytes;  // rows and tail go with the cut
  size_t n = head.size() + tail.size();
  for (size_t i = 0; i + cut < rows.size(); ++i) n += rows[i].size();
  // The cut line's length depends on its count's digits: count it at its longest.
  if (cut > 0) n += 96 + row_noun.size();
  return n;
}

std::string LedgerBlock::Text() const {
  if (left_out) return stand_in;
  if (truncated_to != kWhole) return head.substr(0, truncated_to);  // JoinBlocks adds the cut line
  std::string out = head;
  for (size_t i = 0; i + cut < rows.size(); ++i) out += rows[i];
  return out;  // the tail and the cut line are added by JoinBlocks, which knows `where`
}

bool FitBlocks(std::vector<LedgerBlock>& blocks, size_t max_chars, const std::string& where) {
  for (auto& b : blocks) {
    b.cut = 0;
    b.left_out = false;
    b.truncated_to = LedgerBlock::kWhole;
  }
  if (max_chars == 0) return false;
  const size_t where_size = where.size();
  auto total = [&] {
    size_t n = Total(blocks);
    for (const auto& b : blocks) {
      n += (b.cut > 0 || b.truncated_to != LedgerBlock::kWhole) && !b.left_out ? where_size : 0;
    }
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
  // What is left is more than the limit (issue 48, item 4): the longest heads are cut short, each
  // to what the limit leaves it, until the whole fits.
  while (total() > max_chars) {
    LedgerBlock* longest = nullptr;
    for (auto& b : blocks) {
      if (b.left_out || b.truncated_to != LedgerBlock::kWhole) continue;
      if (longest == nullptr || b.Size() > longest->Size()) longest = &b;
    }
    if (longest == nullptr || longest->Size() <= kTruncationLineBytes + where_size) break;
    const size_t over = total() - max_chars;
    const size_t before = longest->Size();
    const size_t keep =
        before > over + kTruncationLineBytes + where_size ? before - over - kTruncationLineBytes - where_size : 0;
    longest->truncated_to = CharBoundary(longest->head, std::min(keep, longest->head.size()));
    longest->cut = 0;
  }
  return true;
}

std::string JoinBlocks(const std::vector<LedgerBlock>& blocks, const std::string& where) {
  std::string out;
  for (const auto& b : blocks) {
    out += b.Text();
    if (b.left_out) continue;
    if (b.truncated_to != LedgerBlock::kWhole) {
      out += TruncationLine(where);
      continue;
    }
    if (b.cut > 0) out += CutLine(b, where);
    out += b.tail;
  }
  return out;
}

}  // namespace tare::report
