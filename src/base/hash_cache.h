// FileHashCache: the sha256 of files tare hashes at every run (the measured executable, libc, the
// dynamic loader), remembered by the file's identity so that an unchanged file is not read again.
//
// Why: hashing them was the largest part of reading the host — libc and the loader, 2.1 MB, took
// ~1.5-3.5 ms of every run's start on the VM of bench/README.md — and a benchmark binary with debug
// information (tens of MB) takes tens of milliseconds more, at every run.
//
// Identity: the path, and from fstat of the opened file its device, inode, size, mtime and ctime
// (nanoseconds). A write changes mtime and ctime; a program can set mtime back (touch -d, cp -p)
// but never ctime; a file replaced by rename is a new inode. Two writes within one tick of the
// kernel's file clock may leave both times as they were, so a file changed less than kSettleNs
// before it was hashed is hashed but not remembered (git's "racily clean" rule); neither is a file
// whose identity changed while it was read.
//
// Kept in one text file, `<dir>/sha256-v1`: a line per file, `<sha256> <dev> <ino> <size>
// <mtime_ns> <ctime_ns> <path>`, newest last, at most kMaxEntries; rewritten (a fresh temporary
// file made by mkstemp, then rename) only when an entry is added. Lines that do not parse are
// dropped. Trusted only where nobody else could have written it (issue 48, item 2: another user
// can build an entry from `stat` alone): a directory or file not owned by the effective user, or
// writable by its group or others, or a file that is a symbolic link, is neither read nor written
// — every file is then hashed. A directory tare creates is 0700. It is a cache:
// a directory that cannot be created or written, or two tare processes adding at once (one addition
// lost), cost a hash later, never a wrong one.
//
// Not used where a hash is the check itself (a bundle's members, the copies `tare ab` stages, a
// campaign file): those always read the file.
//
// Thread-safety: Sha256 may be called from several threads (the host fingerprint reads libc while
// the main thread describes the executable); files are hashed outside the lock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare {

class FileHashCache {
 public:
  static constexpr int64_t kSettleNs = 2'000'000'000;
  static constexpr size_t kMaxEntries = 1000;

  // `dir` "" = remember nothing (every call hashes). `now_unix_ns` defaults to CLOCK_REALTIME.
  explicit FileHashCache(std::string dir, std::function<int64_t()> now_unix_ns = {});

  // The file's sha256 (lowercase hex), from the cache when its identity is the one remembered.
  StatusOr<std::string> Sha256(const std::string& path);

  // The cache every tare process uses: $TARE_HASH_CACHE (a directory, or "off"), else
  // $XDG_CACHE_HOME/tare, else $HOME/.cache/tare; none when none of these is an absolute path.
  static FileHashCache& Process();
  static std::string DirectoryFromEnvironment();

  const std::string& dir() const { return dir_; }

 private:
  struct Entry {
    std::string sha256;
    uint64_t dev = 0, ino = 0;
    int64_t size = 0, mtime_ns = 0, ctime_ns = 0;
    uint64_t order = 0;  // insertion order: the oldest go first beyond kMaxEntries
  };
  void LoadLocked();
  void RememberLocked(const std::string& path, Entry e);
  void SaveLocked() const;

  std::string dir_;
  std::function<int64_t()> now_;
  std::mutex mu_;
  bool loaded_ = false;
  bool trusted_ = false;  // the directory is ours alone, or absent (LoadLocked); else never written
  uint64_t next_order_ = 0;
  std::map<std::string, Entry> entries_;  // by path
};

// FileHashCache::Process().Sha256(path).
StatusOr<std::string> Sha256FileRemembered(const std::string& path);

}  // namespace tare
