// Small filesystem helpers that return errors as values with messages a user can act on.
#pragma once

#include <string>

#include "base/status.h"

namespace tare {

StatusOr<std::string> ReadFile(const std::string& path);
// Writes a regular file (or a new one) via a fresh temporary file in the same directory (mkstemp)
// and rename(), so readers never see half a file; keeps an existing file's mode. "-", /dev/stdout
// and /dev/stderr are tare's own streams; any other existing path that is not a regular file (a
// device, a FIFO, a symbolic link) is written in place, as a shell's `>` would, never replaced.
// A directory is an error.
Status WriteFileAtomic(const std::string& path, const std::string& contents);
// Last `max_bytes` of a file (whole file if shorter); "" if it cannot be read.
std::string ReadTail(const std::string& path, size_t max_bytes);
// Trimmed first line of a small file such as /proc/sys/kernel/randomize_va_space; nullopt if absent.
std::optional<std::string> ReadFirstLine(const std::string& path);
// Resolves a program name the way execvp would (PATH search when it has no '/').
StatusOr<std::string> ResolveExecutable(const std::string& name);
// Creates a fresh private directory under $TMPDIR (or /tmp): "/tmp/<prefix>-p<pid>-XXXXXX". First
// removes this user's "<prefix>-p<pid>-*" directories whose process no longer exists, so a tare
// killed by SIGKILL or a crash leaves nothing behind for long.
StatusOr<std::string> MakeTempDir(const std::string& prefix);
// rm -rf; errors are ignored (used for temp dirs only).
void RemoveTree(const std::string& path);

}  // namespace tare
