// Small filesystem helpers that return errors as values with messages a user can act on.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace tare {

// The most tare reads of one input document (a campaign, golden, quarantine, thresholds file, a
// profile, an export, a program's listing): far more than any real one, and a bound on what a
// hostile or mistaken file can make tare hold in memory.
inline constexpr int64_t kMaxInputBytes = int64_t{1} << 30;

// Ok when `path` names a regular file (symlinks followed). A FIFO would hang the read (it waits
// for a writer) and a device may never end (/dev/zero), so either is InvalidArgument naming what
// it is; a directory too; a missing file is NotFound. Looks with stat(), never opens.
Status CheckInputFile(const std::string& path);

// A whole input document: a regular file (CheckInputFile; checked again on the opened descriptor,
// which is opened O_NONBLOCK so a FIFO swapped in cannot hang) of at most `max_bytes`, else
// InvalidArgument naming the limit.
StatusOr<std::string> ReadFile(const std::string& path, int64_t max_bytes = kMaxInputBytes);
// Writes a regular file (or a new one) via a fresh temporary file in the same directory (mkstemp)
// and rename(), so readers never see half a file; keeps an existing file's mode. "-", /dev/stdout
// and /dev/stderr are tare's own streams; any other existing path that is not a regular file (a
// device, a FIFO, a symbolic link) is written in place, as a shell's `>` would, never replaced.
// A directory is an error.
Status WriteFileAtomic(const std::string& path, const std::string& contents);
// Writes all of `contents` to `fd` (EINTR retried); errno is set when it returns false.
bool WriteAll(int fd, const std::string& contents);
// Last `max_bytes` of a file (whole file if shorter); "" if it cannot be read.
std::string ReadTail(const std::string& path, size_t max_bytes);
// Trimmed first line of a small file such as /proc/sys/kernel/randomize_va_space; nullopt if absent.
std::optional<std::string> ReadFirstLine(const std::string& path);
// Resolves a program name the way execvp would (PATH search when it has no '/').
StatusOr<std::string> ResolveExecutable(const std::string& name);
// Creates a fresh private directory under $TMPDIR (or /tmp): "/tmp/<prefix>-p<pid>-XXXXXX" (the pid
// zero-padded to 7 digits, so the path's length does not change with it), holding
// an flock on its file kOwnerLockFile for as long as this process lives (the descriptor is kept
// open, close-on-exec; RemoveTree of the directory closes it). First removes this user's
// "<prefix>-p*" directories whose lock nobody holds, so a tare killed by SIGKILL or a crash leaves
// nothing behind for long. Liveness is the lock, not the pid: a tare in another PID namespace
// sharing TMPDIR (a container) has a pid that means nothing here, and its directory is kept.
StatusOr<std::string> MakeTempDir(const std::string& prefix);
inline constexpr char kOwnerLockFile[] = ".owner.lock";
// rm -rf; errors are ignored (used for temp dirs only).
void RemoveTree(const std::string& path);

}  // namespace tare
