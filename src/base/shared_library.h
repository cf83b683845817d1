// A shared library opened on first use (dlopen), for the ones only a few commands need: libpq
// (PostgreSQL stores) and libarchive (evidence bundles) bring ~25 more libraries between them
// (Kerberos, LDAP, GnuTLS, ICU, libxml2, ...), and linked into tare they cost every start ~10 ms
// and ~365 page faults (bench/README.md, "Fixed cost per run"), whatever the command.
//
// A module lists the functions it calls in a table of pointers typed from the library's own header
// (decltype(&::fn), so a mismatch does not compile) and fills it once:
//
//   struct Libpq { decltype(&::PQconnectdb) PQconnectdb; ... };
//   Status s = LoadSharedLibrary({"libpq.so.5", "libpq.so"}, "libpq5", "PostgreSQL stores",
//                                {{"PQconnectdb", reinterpret_cast<void**>(&t.PQconnectdb)}, ...});
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace tare {

struct SharedSymbol {
  const char* name;
  void** slot;  // where the address goes
};

// Opens the first of `sonames` that loads (RTLD_NOW | RTLD_LOCAL) and resolves every symbol into
// its slot. The error says what failed and what to install: "<for_what> need <sonames[0]> (Debian
// package <package>), which cannot be loaded: <dlerror>; install it: sudo apt-get install <package>".
// Not thread-safe by itself: callers load once (a function-local static).
Status LoadSharedLibrary(const std::vector<std::string>& sonames, const std::string& package,
                         const std::string& for_what, const std::vector<SharedSymbol>& symbols);

}  // namespace tare
