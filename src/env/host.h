// Host: everything the fingerprint reads from the machine, behind one small interface so tests can
// serve a crafted machine from a directory tree.
//
// RealHost reads the live /proc, /sys and /etc, asks uname() and glibc, and finds the C library and
// dynamic loader actually mapped into this process. DirectoryHost serves the same questions from a
// snapshot under a root directory (src/env/testdata/hosts/<name>/): a path such as /proc/cpuinfo
// is read from <root>/proc/cpuinfo, and the facts that are not files come from <root>/_process/:
//   _process/kernel_release    uname().release            _process/glibc_version  gnu_get_libc_version()
//   _process/libc_path         resolved libc (a path inside the root, hashed there)
//   _process/loader_path       resolved dynamic loader (likewise)
//   _process/environ           KEY=VALUE lines (filtered exactly like the real environment)
//   _process/valgrind_version  first line of `valgrind --version`; absent = not installed
//
// Both are stateless and safe to use from several threads.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace tare::env {

// The C library and dynamic loader this process runs with, as real paths (symlinks resolved).
// Empty when not found (e.g. a statically linked tare has no loader).
struct LoadedLibraries {
  std::string libc_path;
  std::string loader_path;
};

class Host {
 public:
  virtual ~Host() = default;

  // Whole contents of a small file (/proc, /sys, /etc); nullopt when absent or unreadable.
  virtual std::optional<std::string> ReadFile(const std::string& path) const = 0;
  // Entry names of a directory (no "." or ".."), sorted; empty when absent.
  virtual std::vector<std::string> ListDir(const std::string& path) const = 0;
  // sha256 (hex) of a possibly large file such as libc.
  virtual StatusOr<std::string> FileSha256(const std::string& path) const = 0;

  virtual std::string KernelRelease() const = 0;  // uname -r
  virtual std::string GlibcVersion() const = 0;   // "2.36"; "" when not glibc
  virtual LoadedLibraries Libraries() const = 0;
  // The allocator's environment only: MALLOC_* and GLIBC_TUNABLES, sorted by name. Implementations
  // must filter with AllocatorEnvironment() so that no other variable (they hold secrets) ever
  // leaves the host object.
  virtual std::vector<std::pair<std::string, std::string>> AllocatorEnv() const = 0;
  // First line of `valgrind --version` ("valgrind-3.19.0"); nullopt when valgrind is not
  // installed or fails. RealHost spawns valgrind: call only when the sim instrument needs it.
  virtual std::optional<std::string> ValgrindVersion() const = 0;
};

// The live machine.
class RealHost : public Host {
 public:
  std::optional<std::string> ReadFile(const std::string& path) const override;
  std::vector<std::string> ListDir(const std::string& path) const override;
  StatusOr<std::string> FileSha256(const std::string& path) const override;
  std::string KernelRelease() const override;
  std::string GlibcVersion() const override;
  LoadedLibraries Libraries() const override;
  std::vector<std::pair<std::string, std::string>> AllocatorEnv() const override;
  std::optional<std::string> ValgrindVersion() const override;
};

// A machine served from a snapshot directory (see the header comment for the layout).
class DirectoryHost : public Host {
 public:
  explicit DirectoryHost(std::string root) : root_(std::move(root)) {}

  std::optional<std::string> ReadFile(const std::string& path) const override;
  std::vector<std::string> ListDir(const std::string& path) const override;
  StatusOr<std::string> FileSha256(const std::string& path) const override;
  std::string KernelRelease() const override;
  std::string GlibcVersion() const override;
  LoadedLibraries Libraries() const override;
  std::vector<std::pair<std::string, std::string>> AllocatorEnv() const override;
  std::optional<std::string> ValgrindVersion() const override;

 private:
  std::string Under(const std::string& path) const { return root_ + path; }
  std::string ProcessFact(const std::string& name) const;
  std::string root_;
};

// Keeps only the allocator's variables (names starting with "MALLOC_", and "GLIBC_TUNABLES") from
// "KEY=VALUE" entries, sorted by name. Everything else is dropped unseen.
std::vector<std::pair<std::string, std::string>> AllocatorEnvironment(const std::vector<std::string>& entries);

}  // namespace tare::env
