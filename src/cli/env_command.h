// `tare env`: the host fingerprint and stability checks, readable or as JSON.
//
//   tare env            grouped keys (hard ones marked), then each check with its fix, on stdout
//   tare env --json     the fingerprint as "tare.fingerprint/1" JSON (docs/fingerprint.md)
//   tare env --sim      also probe valgrind (the sim instrument's hard key); spawns valgrind --version
//
// Exit status: 0 (the checks are advice, not failures); usage errors are CLI11's and map to 2 in
// main. Nothing is written anywhere but stdout.
#pragma once

#include <CLI/CLI.hpp>

namespace tare::cli {

// Registers the `env` subcommand on `app`. When it runs, it sets *exit_code.
void AddEnvCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
