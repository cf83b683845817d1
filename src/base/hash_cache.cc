#include "base/hash_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "base/files.h"
#include "base/sha256.h"

namespace tare {
namespace {

constexpr const char* kFileName = "sha256-v1";
// A cache file larger than this is not ours (or not sane): it is read as empty and replaced.
constexpr int64_t kMaxFileBytes = 4 << 20;

int64_t RealtimeNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int64_t Ns(const timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

bool IsLowerHex64(std::string_view s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The next space-separated decimal field of `line` from `*pos`; false when there is none, or it is
// not a number of T (a sign on an unsigned field, an overflow, anything else).
template <typename T>
bool NextNumber(std::string_view line, size_t* pos, T* out) {
  const size_t end = line.find(' ', *pos);
  if (end == std::string_view::npos || end == *pos) return false;
  const char* first = line.data() + *pos;
  const char* last = line.data() + end;
  const auto [stop, ec] = std::from_chars(first, last, *out);
  if (ec != std::errc() || stop != last) return false;
  *pos = end + 1;
  return true;
}

// Whether `st` (of the cache directory or file) is one only this user could have written: owned
// by the effective user, not writable by its group or others (issue 48, item 2). An entry is a
// digest reported without reading the file, so one planted by another user (the identity it needs
// comes from stat alone) would be recorded as the file's.
bool OnlyOursToWrite(const struct stat& st) {
  return st.st_uid == ::geteuid() && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

std::string AbsoluteOrEmpty(const char* v) { return v != nullptr && v[0] == '/' ? std::string(v) : std::string(); }

}  // namespace

FileHashCache::FileHashCache(std::string dir, std::function<int64_t()> now_unix_ns)
    : dir_(std::move(dir)), now_(now_unix_ns ? std::move(now_unix_ns) : RealtimeNs) {}

std::string FileHashCache::DirectoryFromEnvironment() {
  if (const char* v = std::getenv("TARE_HASH_CACHE"); v != nullptr && v[0] != '\0') {
    return std::strcmp(v, "off") == 0 ? std::string() : AbsoluteOrEmpty(v);
  }
  if (std::string xdg = AbsoluteOrEmpty(std::getenv("XDG_CACHE_HOME")); !xdg.empty()) return xdg + "/tare";
  if (std::string home = AbsoluteOrEmpty(std::getenv("HOME")); !home.empty()) return home + "/.cache/tare";
  return "";
}

FileHashCache& FileHashCache::Process() {
  static FileHashCache* cache =
      new FileHashCache(DirectoryFromEnvironment());  // never destroyed: threads may use it at exit
  return *cache;
}

StatusOr<std::string> FileHashCache::Sha256(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::NotFound(fmt::format("cannot read '{}' to hash it: {}", path, std::strerror(errno)));
  }
  struct stat before {};
  const bool identified =
      !dir_.empty() && path.find('\n') == std::string::npos && fstat(fd, &before) == 0 && S_ISREG(before.st_mode);
  Entry e;
  if (identified) {
    e.dev = static_cast<uint64_t>(before.st_dev);
    e.ino = static_cast<uint64_t>(before.st_ino);
    e.size = static_cast<int64_t>(before.st_size);
    e.mtime_ns = Ns(before.st_mtim);
    e.ctime_ns = Ns(before.st_ctim);
    std::lock_guard<std::mutex> lock(mu_);
    LoadLocked();
    auto it = entries_.find(path);
    if (it != entries_.end() && it->second.dev == e.dev && it->second.ino == e.ino && it->second.size == e.size &&
        it->second.mtime_ns == e.mtime_ns && it->second.ctime_ns == e.ctime_ns) {
      ::close(fd);
      return it->second.sha256;
    }
  }
  const int64_t hashed_at = identified ? now_() : 0;
  auto sha = Sha256Fd(fd, path);
  struct stat after {};
  const bool unchanged = identified && sha.ok() && fstat(fd, &after) == 0 && Ns(after.st_mtim) == e.mtime_ns &&
                         Ns(after.st_ctim) == e.ctime_ns && static_cast<int64_t>(after.st_size) == e.size;
  ::close(fd);
  if (unchanged && std::max(e.mtime_ns, e.ctime_ns) <= hashed_at - kSettleNs) {
    e.sha256 = *sha;
    std::lock_guard<std::mutex> lock(mu_);
    RememberLocked(path, std::move(e));
  }
  return sha;
}

void FileHashCache::LoadLocked() {
  if (loaded_) return;
  loaded_ = true;
  // A directory that is not ours alone (another user's, or writable by others: its file could be
  // replaced at any time) is neither read nor written: every file is hashed. One that does not
  // exist yet is created (0700) when the first entry is saved.
  struct stat dir_st {};
  if (::stat(dir_.c_str(), &dir_st) == 0) {
    trusted_ = S_ISDIR(dir_st.st_mode) && OnlyOursToWrite(dir_st);
    if (!trusted_) return;
  } else {
    trusted_ = errno == ENOENT;
    return;
  }
  // Absent, not a regular file of ours (a link, another user's, writable by others), or larger
  // than any cache of ours: read as empty (and replaced).
  std::string text;
  const int fd = ::open((dir_ + "/" + kFileName).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && OnlyOursToWrite(st) && st.st_size <= kMaxFileBytes) {
    text.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text.resize(got);
  }
  ::close(fd);
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) break;  // a last line without its newline was cut short
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    Entry e;
    if (line.size() < 66 || !IsLowerHex64(line.substr(0, 64)) || line[64] != ' ') continue;
    e.sha256 = std::string(line.substr(0, 64));
    size_t pos = 65;
    if (!NextNumber(line, &pos, &e.dev) || !NextNumber(line, &pos, &e.ino) || !NextNumber(line, &pos, &e.size) ||
        !NextNumber(line, &pos, &e.mtime_ns) || !NextNumber(line, &pos, &e.ctime_ns) || pos >= line.size()) {
      continue;
    }
    e.order = next_order_++;
    entries_[std::string(line.substr(pos))] = std::move(e);  // a later line for a path wins
  }
}

void FileHashCache::RememberLocked(const std::string& path, Entry e) {
  LoadLocked();
  e.order = next_order_++;
  entries_[path] = std::move(e);
  while (entries_.size() > kMaxEntries) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
    entries_.erase(oldest);
  }
  SaveLocked();
}

void FileHashCache::SaveLocked() const {
  if (!trusted_) return;
  // Its parents as create_directories makes them; the cache directory itself private to its user.
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir_).parent_path(), ec);
  if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) return;
  struct stat dir_st {};
  if (::stat(dir_.c_str(), &dir_st) != 0 || !S_ISDIR(dir_st.st_mode) || !OnlyOursToWrite(dir_st)) return;
  std::vector<std::pair<uint64_t, const std::pair<const std::string, Entry>*>> by_order;
  for (const auto& kv : entries_) by_order.emplace_back(kv.second.order, &kv);
  std::sort(by_order.begin(), by_order.end());
  std::string text;
  for (const auto& [order, kv] : by_order) {
    const Entry& e = kv->second;
    text += fmt::format("{} {} {} {} {} {} {}\n", e.sha256, e.dev, e.ino, e.size, e.mtime_ns, e.ctime_ns, kv->first);
  }
  // Not WriteFileAtomic: it sets the umask to read it, which another thread creating a file (the
  // store) could pick up. As it does, though: a fresh name nobody could have planted a link at
  // (mkstemp: O_CREAT | O_EXCL, mode 0600), then rename, so readers never see half a file.
  const std::string file = dir_ + "/" + kFileName;
  std::string tmp = file + ".tmp.XXXXXX";
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return;
  const bool put = WriteAll(fd, text);
  const bool closed = ::close(fd) == 0;
  if (!put || !closed || ::rename(tmp.c_str(), file.c_str()) != 0) ::unlink(tmp.c_str());
}

StatusOr<std::string> Sha256FileRemembered(const std::string& path) { return FileHashCache::Process().Sha256(path); }

}  // namespace tare
