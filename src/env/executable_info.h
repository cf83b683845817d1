// Facts about one executable that decide what a measurement of it means: its exact bytes (sha256),
// its build id, the compiler that produced it, whether it is stripped, and the shared libraries it
// asks for. Read from the ELF file itself (64-bit little-endian, <elf.h>), never by running it.
//
// Scripts and other non-ELF files are legal targets for commands: for them DescribeExecutable
// still succeeds, with the sha256 and size filled and `elf_error` saying why the ELF facts are
// absent ("not an ELF executable: a script for /bin/sh"). Only an unreadable file is an error.
// Malformed ELF files never crash the reader: every offset is bounds-checked.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/fingerprint.h"

namespace tare::env {

struct ExecutableInfo {
  std::string path;
  std::string sha256;
  uint64_t size_bytes = 0;

  bool is_elf = false;    // a 64-bit little-endian ELF file whose headers could be read
  std::string elf_error;  // why not, when !is_elf; "" otherwise
  std::string elf_type;   // "executable", "shared object (PIE or library)", "relocatable", ...
  std::string machine;    // "x86-64", "AArch64", or "e_machine 243"
  std::string build_id;   // NT_GNU_BUILD_ID as lowercase hex; "" when there is none
  // Distinct .comment strings in file order, e.g. {"GCC: (Debian 12.2.0-14) 12.2.0"}; a clang
  // build also lists the GCC of the crt objects it linked.
  std::vector<std::string> compilers;
  bool stripped = false;            // no .symtab (what `file` calls stripped)
  bool has_debug_info = false;      // a .debug_info section is present
  std::string interpreter;          // PT_INTERP ("/lib64/ld-linux-x86-64.so.2"); "" when static
  std::vector<std::string> needed;  // DT_NEEDED, in order
  // DT_RUNPATH (or, without one, DT_RPATH) entries as written, e.g. {"$ORIGIN/../lib"}.
  std::vector<std::string> runpath;

  // The .comment strings joined with "; " ("" when none).
  std::string Compiler() const;
};

// NotFound / FailedPrecondition when the file cannot be read; otherwise the facts (see above).
StatusOr<ExecutableInfo> DescribeExecutable(const std::string& path);

nlohmann::json ExecutableInfoToJson(const ExecutableInfo& info);
StatusOr<ExecutableInfo> ExecutableInfoFromJson(const nlohmann::json& j);

// Fingerprint keys for a run that measured one executable, named "<prefix>.sha256",
// "<prefix>.build_id", "<prefix>.compiler". Only the compiler is hard: a different compiler is a
// different experiment, while sha256 and build id change with every edit of the code under test
// (comparing those is the point of tare ab, and lives in the lock, not the host fingerprint).
std::vector<FingerprintKey> ExecutableKeys(const ExecutableInfo& info, const std::string& prefix);

}  // namespace tare::env
