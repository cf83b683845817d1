#include "attribute/asm_diff.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace tare::attribute {
namespace {

struct Instruction {
  uint64_t address = 0;
  std::string text;
};

bool IsHexDigit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

std::optional<uint64_t> ParseHex(std::string_view s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string CollapseBlanks(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

// "    1235:\tcall   11d0 <Checksum(...)>" -> {0x1235, "call   11d0 <Checksum(...)>"}.
std::optional<Instruction> ParseInstructionLine(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  size_t start = i;
  while (i < line.size() && IsHexDigit(line[i])) ++i;
  if (i == start || i + 1 >= line.size() || line[i] != ':' || line[i + 1] != '\t') return std::nullopt;
  auto address = ParseHex(line.substr(start, i - start));
  if (!address) return std::nullopt;
  std::string_view text = line.substr(i + 2);
  if (text.empty() || text.find_first_not_of(" \t") == std::string_view::npos) return std::nullopt;
  return Instruction{*address, std::string(text)};
}

bool IsNop(const std::string& collapsed) {
  // "nop", "nopl 0x0(%rax)", "nopw ...", "data16 cs nopw ...", "cs nopw ...", "xchg %ax,%ax".
  if (collapsed == "xchg %ax,%ax") return true;
  size_t pos = 0;
  while (true) {
    size_t end = collapsed.find(' ', pos);
    std::string_view word =
        std::string_view(collapsed).substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (word == "data16" || word == "cs" || word == "ds" || word == "rex" || word == "rex.W") {
      if (end == std::string::npos) return false;
      pos = end + 1;
      continue;
    }
    return word.rfind("nop", 0) == 0;
  }
}

// The branch operand "11d0 <Checksum(...)+0x10>" of a jump or call: its address, the symbol text
// inside <...>, and where the operand starts. nullopt for other instructions.
struct BranchTarget {
  size_t operand_start = 0;
  uint64_t address = 0;
  std::string symbol;
};
std::optional<BranchTarget> FindBranchTarget(const std::string& text) {
  size_t sp = text.find(' ');
  if (sp == std::string::npos) return std::nullopt;
  std::string_view mnemonic = std::string_view(text).substr(0, sp);
  // "bnd jmp", "notrack jmp": the prefix first.
  size_t operand = sp + 1;
  if (mnemonic == "bnd" || mnemonic == "notrack") {
    size_t sp2 = text.find(' ', operand);
    if (sp2 == std::string::npos) return std::nullopt;
    mnemonic = std::string_view(text).substr(operand, sp2 - operand);
    operand = sp2 + 1;
  }
  if (mnemonic.empty() || (mnemonic[0] != 'j' && mnemonic.rfind("call", 0) != 0 && mnemonic.rfind("loop", 0) != 0 &&
                           mnemonic != "xbegin")) {
    return std::nullopt;
  }
  size_t hex_end = operand;
  while (hex_end < text.size() && IsHexDigit(text[hex_end])) ++hex_end;
  auto address = ParseHex(std::string_view(text).substr(operand, hex_end - operand));
  if (!address || text.compare(hex_end, 2, " <") != 0 || text.back() != '>') return std::nullopt;
  return BranchTarget{operand, *address, text.substr(hex_end + 2, text.size() - hex_end - 3)};
}

// "sym+0x1a" -> "sym".
std::string WithoutOffset(const std::string& symbol) {
  size_t plus = symbol.rfind("+0x");
  if (plus == std::string::npos) return symbol;
  for (size_t i = plus + 3; i < symbol.size(); ++i) {
    if (!IsHexDigit(symbol[i])) return symbol;
  }
  return symbol.substr(0, plus);
}

// "lea 0xf3a(%rip),%rdi # 2004 <_IO_stdin_used+0x4>" -> "lea X(%rip),%rdi # <_IO_stdin_used+0x4>".
std::string NormalizeRipRelative(std::string text) {
  size_t pos = 0;
  while ((pos = text.find("(%rip)", pos)) != std::string::npos) {
    size_t start = pos;
    while (start > 0 && (IsHexDigit(text[start - 1]) || text[start - 1] == 'x' || text[start - 1] == '-')) --start;
    text.replace(start, pos - start, "X");
    pos = start + 7;
  }
  size_t hash = text.find(" # ");
  if (hash != std::string::npos) {
    size_t i = hash + 3, hex_end = i;
    while (hex_end < text.size() && IsHexDigit(text[hex_end])) ++hex_end;
    if (hex_end > i && text.compare(hex_end, 2, " <") == 0) text.erase(i, hex_end + 1 - i);
  }
  return text;
}

}  // namespace

std::vector<std::string> NormalizeDisassembly(const std::string& objdump_text) {
  std::vector<Instruction> code;
  size_t pos = 0;
  while (pos < objdump_text.size()) {
    size_t eol = objdump_text.find('\n', pos);
    if (eol == std::string::npos) eol = objdump_text.size();
    if (auto insn = ParseInstructionLine(std::string_view(objdump_text).substr(pos, eol - pos))) {
      insn->text = CollapseBlanks(insn->text);
      code.push_back(std::move(*insn));
    }
    pos = eol + 1;
  }
  if (code.empty()) return {};
  const uint64_t first = code.front().address, last = code.back().address;
  // Labels: every in-function target, numbered in address order. A target on a dropped nop
  // lands on the next instruction that is kept.
  std::vector<bool> keep(code.size());
  for (size_t i = 0; i < code.size(); ++i) keep[i] = !IsNop(code[i].text);
  std::set<uint64_t> targets;
  for (const auto& insn : code) {
    auto t = FindBranchTarget(insn.text);
    if (t && t->address >= first && t->address <= last) targets.insert(t->address);
  }
  // Target address -> index of the kept instruction it lands on (or code.size(): the end).
  std::map<uint64_t, size_t> lands_on;
  for (uint64_t t : targets) {
    size_t i =
        std::lower_bound(code.begin(), code.end(), t, [](const Instruction& a, uint64_t v) { return a.address < v; }) -
        code.begin();
    while (i < code.size() && !keep[i]) ++i;
    lands_on[t] = i;
  }
  std::map<size_t, int> label_at;  // instruction index -> label number
  for (const auto& [t, i] : lands_on) label_at.emplace(i, 0);
  int next_label = 1;
  for (auto& [i, n] : label_at) n = next_label++;

  std::vector<std::string> out;
  for (size_t i = 0; i <= code.size(); ++i) {
    if (auto l = label_at.find(i); l != label_at.end()) out.push_back("L" + std::to_string(l->second) + ":");
    if (i == code.size() || !keep[i]) continue;
    std::string text = code[i].text;
    if (auto t = FindBranchTarget(text)) {
      std::string operand = (t->address >= first && t->address <= last)
                                ? "L" + std::to_string(label_at[lands_on[t->address]])
                                : "<" + WithoutOffset(t->symbol) + ">";
      text = text.substr(0, t->operand_start) + operand;
    } else {
      text = NormalizeRipRelative(text);
    }
    out.push_back(std::move(text));
  }
  return out;
}

std::vector<DiffLine> DiffLines(const std::vector<std::string>& base, const std::vector<std::string>& head) {
  size_t prefix = 0;
  while (prefix < base.size() && prefix < head.size() && base[prefix] == head[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < base.size() - prefix && suffix < head.size() - prefix &&
         base[base.size() - 1 - suffix] == head[head.size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<DiffLine> out;
  for (size_t i = 0; i < prefix; ++i) out.push_back({' ', base[i]});
  const size_t n = base.size() - prefix - suffix, m = head.size() - prefix - suffix;
  auto a = [&](size_t i) -> const std::string& { return base[prefix + i]; };
  auto b = [&](size_t j) -> const std::string& { return head[prefix + j]; };
  if (n * m > kMaxDiffCells) {
    for (size_t i = 0; i < n; ++i) out.push_back({'-', a(i)});
    for (size_t j = 0; j < m; ++j) out.push_back({'+', b(j)});
  } else {
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        at(i, j) = a(i) == b(j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a(i) == b(j)) {
        out.push_back({' ', a(i)});
        ++i;
        ++j;
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        out.push_back({'-', a(i++)});  // removals before additions, as diff -u shows them
      } else {
        out.push_back({'+', b(j++)});
      }
    }
  }
  for (size_t k = suffix; k-- > 0;) out.push_back({' ', base[base.size() - 1 - k]});
  return out;
}

bool HasChanges(const std::vector<DiffLine>& diff) {
  return std::any_of(diff.begin(), diff.end(), [](const DiffLine& l) { return l.op != ' '; });
}

std::vector<DiffLine> ChangedHunks(const std::vector<DiffLine>& diff, size_t context) {
  std::vector<bool> show(diff.size(), false);
  for (size_t i = 0; i < diff.size(); ++i) {
    if (diff[i].op == ' ') continue;
    const size_t lo = i >= context ? i - context : 0;
    const size_t hi = std::min(diff.size(), i + context + 1);
    for (size_t k = lo; k < hi; ++k) show[k] = true;
  }
  std::vector<DiffLine> out;
  bool gap = false;
  for (size_t i = 0; i < diff.size(); ++i) {
    if (!show[i]) {
      gap = true;
      continue;
    }
    if (gap && !out.empty()) out.push_back({' ', "..."});
    gap = false;
    out.push_back(diff[i]);
  }
  return out;
}

}  // namespace tare::attribute
