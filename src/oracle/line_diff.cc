#include "oracle/line_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tare::oracle {
namespace {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

struct Op {
  char kind;        // ' ', '-', '+'
  size_t old_line;  // 0-based index into old (for ' ' and '-')
  size_t new_line;  // 0-based index into new (for ' ' and '+')
};

// Edit script for old[lo_a, hi_a) vs new[lo_b, hi_b).
void AlignMiddle(const std::vector<std::string_view>& a, size_t lo_a, size_t hi_a,
                 const std::vector<std::string_view>& b, size_t lo_b, size_t hi_b, std::vector<Op>& ops) {
  const size_t n = hi_a - lo_a, m = hi_b - lo_b;
  if (n * m > 4'000'000) {
    for (size_t i = lo_a; i < hi_a; ++i) ops.push_back({'-', i, 0});
    for (size_t j = lo_b; j < hi_b; ++j) ops.push_back({'+', 0, j});
    return;
  }
  // lcs[i][j] = LCS length of a[lo_a+i..hi_a) and b[lo_b+j..hi_b).
  std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      at(i, j) = a[lo_a + i] == b[lo_b + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[lo_a + i] == b[lo_b + j]) {
      ops.push_back({' ', lo_a + i, lo_b + j});
      ++i, ++j;
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      ops.push_back({'-', lo_a + i, 0});  // on ties removals first, as diff -u prints them
      ++i;
    } else {
      ops.push_back({'+', 0, lo_b + j});
      ++j;
    }
  }
}

}  // namespace

std::string LineDiff(std::string_view old_text, std::string_view new_text, const LineDiffOptions& options) {
  if (old_text == new_text) return "";
  const auto a = SplitLines(old_text);
  const auto b = SplitLines(new_text);
  if (a == b) {
    return fmt::format("{}the texts have the same lines and differ only in the final newline\n", options.indent);
  }
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<Op> ops;
  for (size_t k = 0; k < prefix; ++k) ops.push_back({' ', k, k});
  AlignMiddle(a, prefix, a.size() - suffix, b, prefix, b.size() - suffix, ops);
  for (size_t k = suffix; k-- > 0;) ops.push_back({' ', a.size() - 1 - k, b.size() - 1 - k});

  // Keep changed lines and `context_lines` of context around them.
  std::vector<bool> keep(ops.size(), false);
  const int ctx = options.context_lines;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k].kind == ' ') continue;
    size_t from = k >= static_cast<size_t>(ctx) ? k - ctx : 0;
    size_t to = std::min(ops.size(), k + ctx + 1);
    for (size_t x = from; x < to; ++x) keep[x] = true;
  }
  int changed = 0;
  for (const Op& op : ops) changed += op.kind != ' ';

  std::string out =
      fmt::format("{}--- {}\n{}+++ {}\n", options.indent, options.old_label, options.indent, options.new_label);
  int shown = 0, shown_changes = 0;
  bool gap = false;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (!keep[k]) {
      gap = true;
      continue;
    }
    if (shown >= options.max_lines) break;
    if (gap && shown > 0) out += fmt::format("{}  ...\n", options.indent);
    gap = false;
    const Op& op = ops[k];
    std::string_view text = op.kind == '+' ? b[op.new_line] : a[op.old_line];
    // Each line is numbered on its own side: "+" lines in the new text, the others in the old.
    const size_t number = (op.kind == '+' ? op.new_line : op.old_line) + 1;
    out += fmt::format("{}{} {:>5}| {}\n", options.indent, op.kind, number, text);
    ++shown;
    shown_changes += op.kind != ' ';
  }
  if (shown_changes < changed) {
    out += fmt::format("{}... {} more changed lines\n", options.indent, changed - shown_changes);
  }
  return out;
}

}  // namespace tare::oracle
