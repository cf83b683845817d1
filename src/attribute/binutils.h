// What the executables say about a function: their symbol tables (`nm`) and its machine code
// (`objdump`), both GNU binutils run as real processes through proc::Spawner (no shell; argv as
// given). Used by `tare attribute` to back an inlining claim with the symbol tables and to show
// the normalised assembly of one function in two builds (asm_diff.h).
//
// A Binutils owns a spawner and a private temporary directory for the tools' output; not
// thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "proc/spawner.h"

namespace tare::attribute {

// A defined symbol, from `nm --defined-only -S -C`.
struct Symbol {
  uint64_t address = 0;
  uint64_t size = 0;  // 0 when nm knows no size
  char type = '?';    // nm's letter: T/t text, D/d data, W weak...
  std::string name;   // demangled
  bool IsCode() const { return type == 'T' || type == 't' || type == 'W' || type == 'w'; }
};

// Parses nm's output ("addr size type name" or "addr type name"); lines it cannot read are skipped.
std::vector<Symbol> ParseNmOutput(const std::string& text);

// The code symbols whose name is `name`, or, when none is, whose name up to its parameter list
// ("json::Parser::value(int)" -> "json::Parser::value") is `name`.
std::vector<Symbol> FindCodeSymbols(const std::vector<Symbol>& symbols, const std::string& name);

class Binutils {
 public:
  // Finds nm and objdump on $PATH (Unavailable naming the Debian package binutils otherwise) and
  // starts a spawner.
  static StatusOr<std::unique_ptr<Binutils>> Start();
  ~Binutils();

  // Every defined symbol of `executable`. FailedPrecondition when it has none (stripped: "build
  // with -g and do not strip"), NotFound when the file is missing.
  StatusOr<std::vector<Symbol>> Symbols(const std::string& executable);

  // `objdump -d --no-show-raw-insn -C` of [symbol.address, symbol.address + symbol.size).
  StatusOr<std::string> Disassemble(const std::string& executable, const Symbol& symbol);

 private:
  Binutils() = default;
  StatusOr<std::string> RunTool(const std::vector<std::string>& argv);
  std::unique_ptr<proc::Spawner> spawner_;
  std::string nm_;
  std::string objdump_;
  std::string dir_;
};

}  // namespace tare::attribute
