#include "bundle/archive.h"

#include "base/files.h"
#include "base/shared_library.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <set>

namespace tare::bundle {
namespace {

// libarchive, opened at the first bundle (base/shared_library.h: linked, it and what it brings cost
// every tare start several milliseconds). Every function this file calls is in the table, typed
// from archive.h and archive_entry.h.
#define TARE_LIBARCHIVE_FUNCTIONS(X) \
  X(archive_entry_filetype) \
  X(archive_entry_free) \
  X(archive_entry_hardlink) \
  X(archive_entry_new) \
  X(archive_entry_pathname) \
  X(archive_entry_perm) \
  X(archive_entry_set_filetype) \
  X(archive_entry_set_mtime) \
  X(archive_entry_set_pathname) \
  X(archive_entry_set_perm) \
  X(archive_entry_set_size) \
  X(archive_entry_size) \
  X(archive_entry_size_is_set) \
  X(archive_entry_symlink) \
  X(archive_error_string) \
  X(archive_read_data) \
  X(archive_read_data_skip) \
  X(archive_read_free) \
  X(archive_read_new) \
  X(archive_read_next_header) \
  X(archive_read_open_filename) \
  X(archive_read_support_filter_gzip) \
  X(archive_read_support_format_tar) \
  X(archive_write_add_filter_gzip) \
  X(archive_write_close) \
  X(archive_write_data) \
  X(archive_write_free) \
  X(archive_write_header) \
  X(archive_write_new) \
  X(archive_write_open_filename) \
  X(archive_write_set_format_pax_restricted)

struct Libarchive {
#define TARE_LIBARCHIVE_SLOT(name) decltype(&::name) name = nullptr;
  TARE_LIBARCHIVE_FUNCTIONS(TARE_LIBARCHIVE_SLOT)
#undef TARE_LIBARCHIVE_SLOT
};
Libarchive g_libarchive;

// Loads libarchive once; every entry point of this file calls it before anything else.
Status LoadLibarchive() {
  static const Status loaded =
      LoadSharedLibrary({"libarchive.so.13", "libarchive.so"}, "libarchive13", "evidence bundles",
                        {
#define TARE_LIBARCHIVE_SYMBOL(name) {#name, reinterpret_cast<void**>(&g_libarchive.name)},
                            TARE_LIBARCHIVE_FUNCTIONS(TARE_LIBARCHIVE_SYMBOL)
#undef TARE_LIBARCHIVE_SYMBOL
                        });
  return loaded;
}
const Libarchive& La() { return g_libarchive; }

struct WriteCloser {
  void operator()(archive* a) const { La().archive_write_free(a); }
};
struct ReadCloser {
  void operator()(archive* a) const { La().archive_read_free(a); }
};
struct EntryFree {
  void operator()(archive_entry* e) const { La().archive_entry_free(e); }
};

std::string ArchiveError(archive* a) {
  const char* e = La().archive_error_string(a);
  return e != nullptr ? e : "unknown libarchive error";
}

bool NameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-' || c == '+';
}

// Creates dest/<dirs of name>, one component at a time, each with mkdir: a component that already
// exists must be a directory this extraction made (`made`), never something the archive placed.
Status MakeParents(const std::string& dest, const std::string& name, std::set<std::string>* made) {
  size_t slash = 0;
  while ((slash = name.find('/', slash)) != std::string::npos) {
    const std::string dir = name.substr(0, slash);
    ++slash;
    if (made->count(dir) > 0) continue;
    const std::string path = dest + "/" + dir;
    if (mkdir(path.c_str(), 0700) != 0) {
      return Status::DataLoss(
          fmt::format("member '{}': cannot create directory '{}' ({}); a member "
                      "with that name already exists",
                      name, dir, std::strerror(errno)));
    }
    made->insert(dir);
  }
  return Status::Ok();
}

}  // namespace

std::string MemberNameProblem(const std::string& name) {
  if (name.empty()) return "the name is empty";
  if (name.size() > 255) return "the name is longer than 255 characters";
  if (name.front() == '/') return "the name is an absolute path";
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    const std::string part = name.substr(start, end - start);
    if (part.empty()) return "the name has an empty component ('//' or a trailing '/')";
    if (part == "." || part == "..") return "the name has a '" + part + "' component (path traversal)";
    for (char c : part) {
      if (!NameChar(c)) {
        return fmt::format("the name has the byte 0x{:02x}; member names are [A-Za-z0-9._+-] and '/'",
                           static_cast<unsigned char>(c));
      }
    }
    start = end + 1;
  }
  return "";
}

Status WriteArchive(const std::string& path, const std::vector<ArchiveMember>& members) {
  TARE_RETURN_IF_ERROR(LoadLibarchive());
  for (const auto& m : members) {
    if (std::string p = MemberNameProblem(m.name); !p.empty()) {
      return Status::InvalidArgument(fmt::format("bundle member '{}': {}", m.name, p));
    }
  }
  std::unique_ptr<archive, WriteCloser> a(La().archive_write_new());
  if (La().archive_write_add_filter_gzip(a.get()) != ARCHIVE_OK ||
      La().archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK) {
    return Status::Internal("libarchive cannot write a gzip'd tar: " + ArchiveError(a.get()));
  }
  if (La().archive_write_open_filename(a.get(), path.c_str()) != ARCHIVE_OK) {
    return Status::InvalidArgument(fmt::format("cannot write '{}': {}", path, ArchiveError(a.get())));
  }
  const time_t now = std::time(nullptr);
  for (const auto& m : members) {
    std::unique_ptr<archive_entry, EntryFree> e(La().archive_entry_new());
    std::ifstream in;
    int64_t size = static_cast<int64_t>(m.content.size());
    if (!m.file.empty()) {
      in.open(m.file, std::ios::binary | std::ios::ate);
      if (!in)
        return Status::NotFound(fmt::format("cannot read '{}' for the bundle: {}", m.file, std::strerror(errno)));
      size = static_cast<int64_t>(in.tellg());
      in.seekg(0);
    }
    La().archive_entry_set_pathname(e.get(), m.name.c_str());
    La().archive_entry_set_filetype(e.get(), AE_IFREG);
    La().archive_entry_set_perm(e.get(), m.executable ? 0755 : 0644);
    La().archive_entry_set_size(e.get(), size);
    La().archive_entry_set_mtime(e.get(), now, 0);
    if (La().archive_write_header(a.get(), e.get()) != ARCHIVE_OK) {
      return Status::DataLoss(fmt::format("writing '{}' member '{}': {}", path, m.name, ArchiveError(a.get())));
    }
    auto put = [&](const char* data, size_t n) -> Status {
      if (La().archive_write_data(a.get(), data, n) != static_cast<la_ssize_t>(n)) {
        return Status::DataLoss(
            fmt::format("writing '{}' member '{}': {} (disk full?)", path, m.name, ArchiveError(a.get())));
      }
      return Status::Ok();
    };
    if (m.file.empty()) {
      TARE_RETURN_IF_ERROR(put(m.content.data(), m.content.size()));
    } else {
      std::vector<char> buf(1 << 20);
      int64_t left = size;
      while (left > 0) {
        in.read(buf.data(), static_cast<std::streamsize>(std::min<int64_t>(left, buf.size())));
        const std::streamsize got = in.gcount();
        if (got <= 0) return Status::DataLoss(fmt::format("'{}' shrank while it was being bundled", m.file));
        TARE_RETURN_IF_ERROR(put(buf.data(), static_cast<size_t>(got)));
        left -= got;
      }
    }
  }
  if (La().archive_write_close(a.get()) != ARCHIVE_OK) {
    return Status::DataLoss(fmt::format("finishing '{}': {} (disk full?)", path, ArchiveError(a.get())));
  }
  return Status::Ok();
}

StatusOr<std::vector<ExtractedMember>> ExtractArchive(const std::string& path, const std::string& dest,
                                                      const ArchiveLimits& limits, const MemberGate& gate) {
  TARE_RETURN_IF_ERROR(LoadLibarchive());
  TARE_RETURN_IF_ERROR(CheckInputFile(path));
  std::unique_ptr<archive, ReadCloser> a(La().archive_read_new());
  // Only what tare writes: a gzip'd (or plain) tar. Fewer readers, less attack surface.
  La().archive_read_support_filter_gzip(a.get());
  La().archive_read_support_format_tar(a.get());
  if (La().archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a tare bundle (a gzip'd tar): {}", path, ArchiveError(a.get())));
  }
  std::vector<ExtractedMember> out;
  std::set<std::string> names;
  std::set<std::string> dirs;
  int64_t total = 0;
  std::vector<char> buf(1 << 16);
  for (;;) {
    archive_entry* e = nullptr;
    const int r = La().archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK) {
      return Status::DataLoss(
          fmt::format("'{}' is damaged after {} members: {}", path, out.size(), ArchiveError(a.get())));
    }
    const char* raw_name = La().archive_entry_pathname(e);
    const std::string name = raw_name != nullptr ? raw_name : "";
    auto refuse = [&](const std::string& why) {
      return Status::DataLoss(
          fmt::format("'{}' member '{}' refused: {}; this is not a bundle tare wrote", path, name, why));
    };
    if (std::string p = MemberNameProblem(name); !p.empty()) return refuse(p);
    if (La().archive_entry_hardlink(e) != nullptr) return refuse("it is a hard link");
    if (La().archive_entry_symlink(e) != nullptr || La().archive_entry_filetype(e) == AE_IFLNK)
      return refuse("it is a symbolic link");
    if (La().archive_entry_filetype(e) != AE_IFREG) return refuse("it is not a regular file");
    if (!names.insert(name).second) return refuse("a second member with the same name");
    if (static_cast<int64_t>(names.size()) > limits.max_members) {
      return refuse(fmt::format("more than {} members", limits.max_members));
    }
    const int64_t declared = La().archive_entry_size_is_set(e) ? La().archive_entry_size(e) : -1;
    if (declared > limits.max_member_bytes) {
      return refuse(fmt::format("{} bytes, more than the {} a member may hold", declared, limits.max_member_bytes));
    }
    if (gate) {
      if (std::string why = gate(name, declared); !why.empty()) {
        out.push_back({name, "", declared, why});
        if (La().archive_read_data_skip(a.get()) != ARCHIVE_OK) {
          return Status::DataLoss(fmt::format("'{}' is damaged in member '{}': {}", path, name, ArchiveError(a.get())));
        }
        continue;
      }
    }
    TARE_RETURN_IF_ERROR(MakeParents(dest, name, &dirs));
    const std::string target = dest + "/" + name;
    const mode_t mode = (La().archive_entry_perm(e) & 0100) != 0 ? 0700 : 0600;
    const int fd = open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) return refuse(fmt::format("cannot create it ({})", std::strerror(errno)));
    int64_t size = 0;
    Status status;
    for (;;) {
      const la_ssize_t n = La().archive_read_data(a.get(), buf.data(), buf.size());
      if (n == 0) break;
      if (n < 0) {
        status = Status::DataLoss(fmt::format("'{}' is damaged in member '{}': {}", path, name, ArchiveError(a.get())));
        break;
      }
      size += n;
      total += n;
      if (size > limits.max_member_bytes) {
        status = refuse(fmt::format("more than {} bytes", limits.max_member_bytes));
        break;
      }
      if (total > limits.max_total_bytes) {
        status = refuse(fmt::format("the archive unpacks to more than {} bytes", limits.max_total_bytes));
        break;
      }
      for (la_ssize_t done = 0; done < n;) {
        const ssize_t w = write(fd, buf.data() + done, static_cast<size_t>(n - done));
        if (w < 0) {
          status = Status::DataLoss(fmt::format("extracting '{}' to '{}': {}", name, dest, std::strerror(errno)));
          break;
        }
        done += w;
      }
      if (!status.ok()) break;
    }
    close(fd);
    if (!status.ok()) {
      unlink(target.c_str());
      return status;
    }
    out.push_back({name, target, size, ""});
  }
  return out;
}

StatusOr<ArchiveMember> ReadFirstMember(const std::string& path, int64_t max_bytes) {
  TARE_RETURN_IF_ERROR(LoadLibarchive());
  TARE_RETURN_IF_ERROR(CheckInputFile(path));
  std::unique_ptr<archive, ReadCloser> a(La().archive_read_new());
  La().archive_read_support_filter_gzip(a.get());
  La().archive_read_support_format_tar(a.get());
  if (La().archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
    return Status::DataLoss(fmt::format("'{}' is not a gzip'd tar: {}", path, ArchiveError(a.get())));
  }
  archive_entry* e = nullptr;
  if (La().archive_read_next_header(a.get(), &e) != ARCHIVE_OK) {
    return Status::DataLoss(fmt::format("'{}' is not a gzip'd tar: {}", path, ArchiveError(a.get())));
  }
  ArchiveMember m;
  m.name = La().archive_entry_pathname(e) != nullptr ? La().archive_entry_pathname(e) : "";
  if (La().archive_entry_filetype(e) != AE_IFREG || !La().archive_entry_size_is_set(e) ||
      La().archive_entry_size(e) > max_bytes) {
    return Status::DataLoss(fmt::format("'{}': the first member '{}' is not a small plain file", path, m.name));
  }
  m.content.resize(static_cast<size_t>(La().archive_entry_size(e)));
  size_t got = 0;
  while (got < m.content.size()) {
    const la_ssize_t n = La().archive_read_data(a.get(), m.content.data() + got, m.content.size() - got);
    if (n <= 0) return Status::DataLoss(fmt::format("'{}' is damaged: {}", path, ArchiveError(a.get())));
    got += static_cast<size_t>(n);
  }
  return m;
}

}  // namespace tare::bundle
