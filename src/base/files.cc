#include "base/files.h"

#include <fmt/format.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <fstream>
#include <sstream>
#include <vector>

namespace tare {

namespace {

// What a file that is not regular is, in a user's words; "" for a regular file.
const char* NotRegular(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status RefuseNotRegular(const std::string& path, mode_t mode) {
  // An ifstream opens a directory without complaint and reads it as empty, which would pass a
  // directory off as an empty campaign, golden or report (issue 9); a FIFO blocks the open until a
  // writer comes, a device may never end (issue 27, item 11).
  if (S_ISDIR(mode)) {
    return Status::InvalidArgument(fmt::format("'{}' is a directory; give the path of a file", path));
  }
  return Status::InvalidArgument(
      fmt::format("'{}' is {}, not a regular file; tare reads its inputs from regular files only (copy it to a "
                  "file first)",
                  path, NotRegular(mode)));
}

Status TooLarge(const std::string& path, int64_t max_bytes) {
  return Status::InvalidArgument(fmt::format(
      "'{}' is larger than {} bytes, the most tare reads of one input file; is it the right file?", path, max_bytes));
}

}  // namespace

Status CheckInputFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT) return Status::NotFound(fmt::format("'{}' does not exist", path));
    return Status::NotFound(fmt::format("cannot open '{}': {}", path, std::strerror(e)));
  }
  if (!S_ISREG(st.st_mode)) return RefuseNotRegular(path, st.st_mode);
  return Status::Ok();
}

StatusOr<std::string> ReadFile(const std::string& path, int64_t max_bytes) {
  // stat first, so a FIFO or device is never even opened (an open can have effects: a tape
  // rewinds, a FIFO's writer is released); then fstat on what was opened, O_NONBLOCK, in case the
  // path was swapped in between.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return RefuseNotRegular(path, st.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Status::NotFound(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return RefuseNotRegular(path, st.st_mode);
  }
  if (st.st_size > max_bytes) {
    ::close(fd);
    return TooLarge(path, max_bytes);
  }
  // Read to EOF, not by st_size: /proc and /sys files report 0, and a file may grow while read.
  std::string out;
  out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      const int e = errno;
      ::close(fd);
      return Status::DataLoss(fmt::format("reading '{}' failed: {}", path, std::strerror(e)));
    }
    if (n == 0) break;
    if (static_cast<int64_t>(out.size()) + n > max_bytes) {
      ::close(fd);
      return TooLarge(path, max_bytes);
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

bool WriteAll(int fd, const std::string& contents) {
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

namespace {

Status WriteFailed(const std::string& path, int e) {
  return e == ENOSPC || e == EDQUOT || e == EIO
             ? Status::DataLoss(fmt::format("write to '{}' failed: {} (disk full?)", path, std::strerror(e)))
             : Status::InvalidArgument(fmt::format("cannot write '{}': {}", path, std::strerror(e)));
}

// A stream, a device, a FIFO or a link the user named: written where it is, as a shell's `>`
// would, never replaced by a regular file.
Status WriteInPlace(const std::string& path, const std::string& contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return WriteFailed(path, errno);
  const bool ok = WriteAll(fd, contents);
  const int e = errno;
  ::close(fd);
  return ok ? Status::Ok() : WriteFailed(path, e);
}

}  // namespace

Status WriteFileAtomic(const std::string& path, const std::string& contents) {
  // "-", /dev/stdout and /dev/stderr are tare's own streams.
  if (path == "-" || path == "/dev/stdout" || path == "/dev/stderr") {
    const int fd = path == "/dev/stderr" ? STDERR_FILENO : STDOUT_FILENO;
    return WriteAll(fd, contents) ? Status::Ok() : WriteFailed(path, errno);
  }
  struct stat st {};
  const bool exists = ::lstat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument(fmt::format("'{}' is a directory; give the path of a file", path));
  }
  if (exists && !S_ISREG(st.st_mode)) return WriteInPlace(path, contents);

  // A regular file, or none yet: a fresh temporary file beside it (mkstemp: a name nobody could
  // plant a link at, opened O_EXCL), then rename(), so readers never see half a file.
  std::string tmp = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    return Status::InvalidArgument(fmt::format("cannot write '{}': {}; check that the directory exists and is writable",
                                               path, std::strerror(errno)));
  }
  // The mode a new file would get (0666 less the umask), or the mode the file already has.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  const bool ok = ::fchmod(fd, mode) == 0 && WriteAll(fd, contents);
  const int e = errno;
  ::close(fd);
  if (!ok) {
    ::unlink(tmp.c_str());
    return WriteFailed(path, e);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int re = errno;
    ::unlink(tmp.c_str());
    return Status::InvalidArgument(fmt::format("cannot write '{}': {}", path, std::strerror(re)));
  }
  return Status::Ok();
}

std::string ReadTail(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  std::streamoff size = in.tellg();
  std::streamoff start =
      size > static_cast<std::streamoff>(max_bytes) ? size - static_cast<std::streamoff>(max_bytes) : 0;
  in.seekg(start);
  std::string out(static_cast<size_t>(size - start), '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  return out;
}

std::optional<std::string> ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

StatusOr<std::string> ResolveExecutable(const std::string& name) {
  auto check = [](const std::string& p) -> Status {
    struct stat st;
    if (stat(p.c_str(), &st) != 0) {
      return Status::NotFound(fmt::format("'{}' does not exist; check the path", p));
    }
    if (S_ISDIR(st.st_mode)) return Status::InvalidArgument(fmt::format("'{}' is a directory, not a program", p));
    if (!S_ISREG(st.st_mode)) {
      return Status::InvalidArgument(fmt::format("'{}' is {}, not a program", p, NotRegular(st.st_mode)));
    }
    if (access(p.c_str(), X_OK) != 0) {
      return Status::InvalidArgument(fmt::format("'{}' is not executable; run chmod +x '{}'", p, p));
    }
    return Status::Ok();
  };
  if (name.empty()) return Status::InvalidArgument("empty program name");
  if (name.find('/') != std::string::npos) {
    TARE_RETURN_IF_ERROR(check(name));
    return std::filesystem::absolute(name).lexically_normal().string();
  }
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t end = path.find(':', pos);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(pos, end - pos);
    // An empty PATH entry is the current directory. g++ 12 at -O2 warns here (-Wrestrict: memcpy
    // "accessing 9223372036854775810 or more bytes ... may overlap") on assigning a one-character
    // literal to a std::string; a false positive of its inlined basic_string::_M_replace, GCC bug
    // 105329 (https://gcc.gnu.org/bugzilla/show_bug.cgi?id=105329; Debian 12 has g++ 12.2). Silenced for
    // this statement only, so -Werror (TARE_WERROR) still catches a real overlap elsewhere.
    // (clang has no -Wrestrict and would warn of an unknown option.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
    if (dir.empty()) dir = ".";
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
    std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) {
      struct stat st;
      if (stat(candidate.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
        return std::filesystem::absolute(candidate).lexically_normal().string();
      }
    }
    pos = end + 1;
  }
  return Status::NotFound(
      fmt::format("'{}' was not found on PATH; give a path such as ./{} or install it", name, name));
}

namespace {

// The lock descriptors of this process's work directories, closed by RemoveTree.
std::mutex g_owner_locks_mutex;
std::map<std::string, int>& OwnerLocks() {
  static auto* locks = new std::map<std::string, int>();
  return *locks;
}

// A directory made before its lock file existed: a tare older than the lock, or one caught
// between mkdtemp and taking its lock. Left alone for this long, then judged by its pid.
constexpr int64_t kUnlockedGraceSeconds = 600;

// Work directories of tare processes that died without cleaning up (SIGKILL, a crash, a lost
// machine): "<prefix>-p<pid, 7 digits>-XXXXXX". Their owner held an flock on <dir>/.owner.lock while alive;
// the kernel drops it when the owner dies, however it dies, in whatever PID namespace it ran. A
// directory whose lock this process can take is removed (still holding it, so a second reaper
// waits). One without a lock file is removed only when it is older than kUnlockedGraceSeconds and
// its pid names no process here (a tare from before the lock). Only this user's directories.
void RemoveStaleTempDirs(const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  const std::string head = prefix + "-p";
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(head, 0) != 0) continue;
    char* stop = nullptr;
    const long pid = std::strtol(name.c_str() + head.size(), &stop, 10);
    if (pid <= 0 || stop == nullptr || *stop != '-') continue;
    struct stat st {};
    if (lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) continue;
    const std::string lock_path = it->path().string() + "/" + kOwnerLockFile;
    const int fd = ::open(lock_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      if (errno != ENOENT) continue;
      const bool old = std::time(nullptr) - st.st_mtime > kUnlockedGraceSeconds;
      if (!old || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      std::error_code ignored;
      std::filesystem::remove_all(it->path(), ignored);
      continue;
    }
    struct stat lst {};
    if (::fstat(fd, &lst) != 0 || !S_ISREG(lst.st_mode) || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);  // held: its owner is alive
      continue;
    }
    std::error_code ignored;
    std::filesystem::remove_all(it->path(), ignored);
    ::close(fd);
  }
}

}  // namespace

StatusOr<std::string> MakeTempDir(const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = tmp && *tmp ? tmp : "/tmp";
  RemoveStaleTempDirs(dir, prefix);
  // The pid has a fixed width: a child told a path in here (TARE_METRICS_FILE) gets an environment
  // of the same size whatever the pid, and under valgrind that size moves the stack and with it the
  // instruction counts of strlen and its kind (14 Ir across two cohorts whose pids had 4 and 5 digits).
  std::string templ = fmt::format("{}/{}-p{:07}-XXXXXX", dir, prefix, getpid());
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    return Status::FailedPrecondition(
        fmt::format("cannot create a temporary directory from '{}': {}; set TMPDIR to a writable "
                    "directory",
                    templ, std::strerror(errno)));
  }
  const std::string made(buf.data());
  // Locked before it has its name: a reaper that found .owner.lock created but not yet locked
  // would take the lock and remove a live directory (seen with 8 concurrent tare runs).
  const std::string lock_path = made + "/" + kOwnerLockFile;
  const std::string unnamed = lock_path + ".new";
  const int fd = ::open(unnamed.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::rename(unnamed.c_str(), lock_path.c_str()) != 0) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    RemoveTree(made);
    return Status::FailedPrecondition(
        fmt::format("cannot lock the temporary directory '{}': {}; set TMPDIR to a local writable directory", made,
                    std::strerror(e)));
  }
  std::lock_guard<std::mutex> hold(g_owner_locks_mutex);
  OwnerLocks()[made] = fd;
  return made;
}

void RemoveTree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  std::lock_guard<std::mutex> hold(g_owner_locks_mutex);
  auto it = OwnerLocks().find(path);
  if (it != OwnerLocks().end()) {
    ::close(it->second);
    OwnerLocks().erase(it);
  }
}

}  // namespace tare
