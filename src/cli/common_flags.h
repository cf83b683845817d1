// Flags several subcommands share: where the store is, and where the measured code came from.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "env/provenance.h"

namespace tare::cli {

// $TARE_STORE when set and not empty, else ".tare/tare.db".
std::string DefaultStorePath();
// The --store help text, naming the default.
inline constexpr char kStoreHelp[] = "SQLite store (default: $TARE_STORE, else .tare/tare.db)";

// --commit, --branch, --tag KEY=VALUE (repeatable), --no-git: what a run records about the code
// it measured (env/provenance.h). Checked with env::ValidateDeclaredProvenance before measuring.
void AddProvenanceFlags(CLI::App* sub, env::DeclaredProvenance* declared);

}  // namespace tare::cli
