// The files tare writes where the user says (run --json, export -o, ab --ledger/--json, oracle
// --golden with --accept), checked before anything runs: a bad path then costs nothing — no
// sample is taken, no store is created — and an output can never land on a file tare reads.
//
// Every command that writes a user-named file calls CheckOutputPath once per such flag, before its
// first process, with the files that output must not replace: the store (and its -wal, -shm and
// -journal files, store::StoreFiles: replacing any of them loses or corrupts every stored run), the
// golden, campaign and quarantine inputs, the executables under test. It is WriteFileAtomic's
// (files.h) question asked ahead of time.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace tare {

// A file an output must not replace, and what to call it in the message.
struct KeptFile {
  std::string path;
  std::string what;  // "the store", "the campaign file", ...
};

// InvalidArgument naming `flag` and `path` when the output cannot or must not be written: the path
// is a directory, its directory does not exist (or is not a directory), it cannot be written now
// (its directory, or a device or FIFO itself, is not writable: mode, read-only mount), or it is the same file as
// one of `kept` (same inode, or the same path once symlinks and `..` are resolved). A directory
// that tare creates itself before writing (the store's directory) may be passed as
// `created_dir`. An empty path (the flag was not given) is fine.
Status CheckOutputPath(const std::string& flag, const std::string& path, const std::vector<KeptFile>& kept,
                       const std::string& created_dir = "");

}  // namespace tare
