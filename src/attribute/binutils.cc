#include "attribute/binutils.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <string_view>

#include "base/files.h"
#include "base/terminal_text.h"

namespace tare::attribute {
namespace {

std::optional<uint64_t> Hex(std::string_view s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// "json::Parser::value(int) const" -> "json::Parser::value"; names without '(' unchanged.
std::string WithoutParameters(const std::string& name) {
  // The parameter list is the last top-level "(...)"; operator() and templates make the first
  // '(' unreliable, so walk back from the end over balanced parentheses.
  if (name.empty() || name.find('(') == std::string::npos) return name;
  size_t end = name.rfind(')');
  if (end == std::string::npos) return name;
  int depth = 0;
  for (size_t i = end + 1; i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return name.substr(0, i);
  }
  return name;
}

}  // namespace

std::vector<Symbol> ParseNmOutput(const std::string& text) {
  std::vector<Symbol> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string_view line(text.data() + pos, eol - pos);
    pos = eol + 1;
    // "0000000000001210 0000000000000043 T Work(...)" or "0000000000004010 B __bss_start"
    size_t s1 = line.find(' ');
    if (s1 == std::string_view::npos) continue;
    auto address = Hex(line.substr(0, s1));
    size_t s2 = line.find(' ', s1 + 1);
    if (!address || s2 == std::string_view::npos) continue;
    std::string_view second = line.substr(s1 + 1, s2 - s1 - 1);
    Symbol sym;
    sym.address = *address;
    if (second.size() == 1) {
      sym.type = second[0];
      sym.name = std::string(line.substr(s2 + 1));
    } else {
      auto size = Hex(second);
      size_t s3 = line.find(' ', s2 + 1);
      if (!size || s3 != s2 + 2) continue;
      sym.size = *size;
      sym.type = line[s2 + 1];
      sym.name = std::string(line.substr(s3 + 1));
    }
    if (!sym.name.empty()) out.push_back(std::move(sym));
  }
  return out;
}

std::vector<Symbol> FindCodeSymbols(const std::vector<Symbol>& symbols, const std::string& name) {
  std::vector<Symbol> exact, loose;
  for (const auto& s : symbols) {
    if (!s.IsCode()) continue;
    if (s.name == name) exact.push_back(s);
    else if (WithoutParameters(s.name) == name) loose.push_back(s);
  }
  return exact.empty() ? loose : exact;
}

StatusOr<std::unique_ptr<Binutils>> Binutils::Start() {
  std::unique_ptr<Binutils> b(new Binutils());
  auto nm = ResolveExecutable("nm");
  auto objdump = ResolveExecutable("objdump");
  if (!nm.ok() || !objdump.ok()) {
    return Status::Unavailable(
        "nm and objdump (GNU binutils) are not installed; install the Debian package: apt-get "
        "install binutils");
  }
  b->nm_ = *nm;
  b->objdump_ = *objdump;
  TARE_ASSIGN_OR_RETURN(b->dir_, MakeTempDir("tare-attribute"));
  TARE_ASSIGN_OR_RETURN(b->spawner_, proc::Spawner::Start());
  return b;
}

Binutils::~Binutils() {
  spawner_.reset();
  if (!dir_.empty()) RemoveTree(dir_);
}

StatusOr<std::string> Binutils::RunTool(const std::vector<std::string>& argv) {
  proc::SpawnRequest req;
  req.argv = argv;
  // C locale: the tools' messages and number formats are the ones parsed here.
  req.env = {"LC_ALL=C", "PATH=/usr/local/bin:/usr/bin:/bin"};
  req.stdout_path = dir_ + "/out";
  req.stderr_path = dir_ + "/err";
  req.timeout_ns = 120'000'000'000;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, spawner_->Run(req));
  if (!r.ok()) {
    std::string err = ReadTail(dir_ + "/err", 2000);
    while (!err.empty() && err.back() == '\n') err.pop_back();
    return Status::FailedPrecondition(fmt::format("{} failed ({}): {}", argv[0], r.Describe(), SingleLineText(err)));
  }
  return ReadFile(dir_ + "/out");
}

StatusOr<std::vector<Symbol>> Binutils::Symbols(const std::string& executable) {
  if (!std::filesystem::exists(executable)) {
    return Status::NotFound(fmt::format("executable '{}' does not exist", executable));
  }
  TARE_ASSIGN_OR_RETURN(std::string text, RunTool({nm_, "--defined-only", "-S", "-C", executable}));
  std::vector<Symbol> symbols = ParseNmOutput(text);
  bool any_code = false;
  for (const auto& s : symbols) any_code = any_code || s.IsCode();
  if (!any_code) {
    return Status::FailedPrecondition(
        fmt::format("executable '{}' has no symbol table (it is stripped); build it with -g and do not strip "
                    "it (no -s, no `strip`, no install/strip step) to see its functions",
                    executable));
  }
  return symbols;
}

StatusOr<std::string> Binutils::Disassemble(const std::string& executable, const Symbol& symbol) {
  if (symbol.size == 0) {
    return Status::FailedPrecondition(fmt::format(
        "the symbol table of '{}' gives no size for '{}'; cannot tell where its code ends", executable, symbol.name));
  }
  return RunTool({objdump_, "-d", "--no-show-raw-insn", "-C", "--wide",
                  fmt::format("--start-address=0x{:x}", symbol.address),
                  fmt::format("--stop-address=0x{:x}", symbol.address + symbol.size), executable});
}

}  // namespace tare::attribute
