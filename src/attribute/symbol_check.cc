#include "attribute/symbol_check.h"

#include <fmt/format.h>

namespace tare::attribute {
namespace {

// The defined code symbol with a size for `name`, if any.
std::optional<Symbol> Defined(const std::vector<Symbol>& symbols, const std::string& name) {
  for (const auto& s : FindCodeSymbols(symbols, name)) {
    if (s.size > 0) return s;
  }
  return std::nullopt;
}

StatusOr<Symbol> FindOne(const std::vector<Symbol>& symbols, const std::string& exe, const std::string& side,
                         const std::string& function) {
  std::vector<Symbol> found = FindCodeSymbols(symbols, function);
  if (found.empty()) {
    return Status::NotFound(
        fmt::format("the {} executable '{}' defines no function '{}' (inlined everywhere, or another name: "
                    "`nm -C {}` lists what it defines)",
                    side, exe, function, exe));
  }
  if (found.size() > 1) {
    std::string names;
    for (const auto& s : found) names += fmt::format("\n  {}", s.name);
    return Status::InvalidArgument(
        fmt::format("'{}' names {} functions in the {} executable; give the full name with its parameters:{}", function,
                    found.size(), side, names));
  }
  return found.front();
}

}  // namespace

void CheckInliningSymbols(const StatusOr<std::vector<Symbol>>& base_symbols,
                          const StatusOr<std::vector<Symbol>>& head_symbols, AttributionResult* result) {
  for (auto& row : result->rows) {
    if (!row.inlining) continue;
    InliningFinding& f = *row.inlining;
    if (!base_symbols.ok() || !head_symbols.ok()) {
      f.symbol_check = InliningFinding::SymbolCheck::kNotChecked;
      f.symbol_note =
          fmt::format("not checked: {}", (!base_symbols.ok() ? base_symbols : head_symbols).status().message());
      continue;
    }
    auto in_base = Defined(*base_symbols, row.name);
    auto in_head = Defined(*head_symbols, row.name);
    const bool inlined = f.kind == InliningFinding::Kind::kInlinedInto;
    const auto& was = inlined ? in_base : in_head;  // the side where it is called
    const auto& now = inlined ? in_head : in_base;  // the side where it should have no symbol
    const char* was_side = inlined ? "base" : "head";
    const char* now_side = inlined ? "head" : "base";
    if (was && !now) {
      f.symbol_check = InliningFinding::SymbolCheck::kConfirmed;
      f.symbol_note = fmt::format("confirmed by the symbol tables: {} defines it ({} bytes), {} does not", was_side,
                                  was->size, now_side);
    } else if (!was) {
      f.symbol_check = InliningFinding::SymbolCheck::kNotConfirmed;
      f.symbol_note = fmt::format("not confirmed: the {} executable does not define it (it lives in {})", was_side,
                                  row.object.empty() ? "another object" : row.object);
    } else {
      f.symbol_check = InliningFinding::SymbolCheck::kNotConfirmed;
      f.symbol_note =
          fmt::format("not confirmed: {} still defines it ({} bytes; an out-of-line copy)", now_side, now->size);
    }
  }
}

StatusOr<AsmComparison> CompareFunctionAsm(Binutils& tools, const std::string& base_exe, const std::string& head_exe,
                                           const std::string& function) {
  TARE_ASSIGN_OR_RETURN(auto base_symbols, tools.Symbols(base_exe));
  TARE_ASSIGN_OR_RETURN(auto head_symbols, tools.Symbols(head_exe));
  TARE_ASSIGN_OR_RETURN(Symbol base, FindOne(base_symbols, base_exe, "base", function));
  TARE_ASSIGN_OR_RETURN(Symbol head, FindOne(head_symbols, head_exe, "head", function));
  TARE_ASSIGN_OR_RETURN(std::string base_text, tools.Disassemble(base_exe, base));
  TARE_ASSIGN_OR_RETURN(std::string head_text, tools.Disassemble(head_exe, head));
  AsmComparison out;
  out.function = function;
  out.base_symbol = base.name;
  out.head_symbol = head.name;
  out.base_bytes = base.size;
  out.head_bytes = head.size;
  std::vector<std::string> a = NormalizeDisassembly(base_text);
  std::vector<std::string> b = NormalizeDisassembly(head_text);
  out.base_lines = a.size();
  out.head_lines = b.size();
  out.diff = DiffLines(a, b);
  out.identical = !HasChanges(out.diff);
  return out;
}

}  // namespace tare::attribute
