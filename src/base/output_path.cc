#include "base/output_path.h"

#include <fmt/format.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tare {
namespace fs = std::filesystem;
namespace {

// The same file: by inode when both exist (hard links, symlinks, bind mounts), else by the path
// with symlinks and `..` resolved as far as it exists. String equality would miss `./.tare/tare.db`.
bool SameFile(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  if (ec) return false;
  fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  if (ec) return false;
  return ca == cb;
}

}  // namespace

Status CheckOutputPath(const std::string& flag, const std::string& path, const std::vector<KeptFile>& kept,
                       const std::string& created_dir) {
  if (path.empty()) return Status::Ok();
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return Status::InvalidArgument(fmt::format("{} '{}' is a directory; give a file name, e.g. {} {}/out.json", flag,
                                               path, flag, fs::path(path).lexically_normal().string()));
  }
  const fs::path parent = fs::path(path).parent_path();
  const bool created =
      !created_dir.empty() && !parent.empty() && parent.lexically_normal() == fs::path(created_dir).lexically_normal();
  if (!parent.empty() && !created) {
    if (!fs::exists(parent, ec)) {
      return Status::InvalidArgument(
          fmt::format("{} '{}': directory '{}' does not exist; create it first", flag, path, parent.string()));
    }
    if (!fs::is_directory(parent, ec)) {
      return Status::InvalidArgument(fmt::format("{} '{}': '{}' is not a directory", flag, path, parent.string()));
    }
  }
  for (const KeptFile& k : kept) {
    if (k.path.empty() || !SameFile(path, k.path)) continue;
    return Status::InvalidArgument(fmt::format(
        "{} '{}' is {} ('{}'); writing there would destroy it. Choose another file", flag, path, k.what, k.path));
  }
  // Writable now, so a run is not measured and stored only to fail at its last step (issue 27,
  // item 9). WriteFileAtomic writes a device or FIFO in place (the path must be writable), anything
  // else through a temporary file in its directory (the directory must be). access(2) answers for
  // the real user, file modes and a read-only mount (EROFS) alike.
  if (path == "-" || path == "/dev/stdout" || path == "/dev/stderr") return Status::Ok();
  if (created) return Status::Ok();
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const bool in_place = exists && !S_ISREG(st.st_mode);
  const std::string dir = parent.empty() ? "." : parent.string();
  const std::string& probe = in_place ? path : dir;
  if (::access(probe.c_str(), W_OK) != 0) {
    const int e = errno;
    return Status::InvalidArgument(
        fmt::format("{} '{}' cannot be written: {} '{}' is not writable ({}); choose another file, or fix its "
                    "permissions, before anything is measured",
                    flag, path, in_place ? "the file" : "the directory", probe, std::strerror(e)));
  }
  return Status::Ok();
}

}  // namespace tare
