// The archive under an evidence bundle: a gzip-compressed POSIX tar written and read with
// libarchive (docs/dependencies.md). Writing takes named members (bytes in memory, or a file on
// disk streamed in); reading extracts into a directory the caller created for it, and nowhere else.
//
// A bundle comes from someone else's machine, so reading treats the archive as hostile. Before a
// byte of a member is written, its header is checked:
//   - the name is relative, made of [A-Za-z0-9._+-] components separated by '/', with no empty,
//     "." or ".." component and at most 255 characters (no path traversal, no absolute names);
//   - the entry is a regular file (symlinks, hard links, devices, directories are refused);
//   - the name has not been seen before in the archive (a duplicate could shadow a verified one);
//   - the declared size is within the limits, and the bytes actually read are counted too, so a
//     member or a decompression bomb cannot fill the disk.
// Files are created with O_EXCL | O_NOFOLLOW in directories this code made itself, so nothing is
// ever written outside `dest`. Any refusal names the member and why; nothing is extracted beyond it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::bundle {

struct ArchiveMember {
  std::string name;         // relative path inside the archive ("bin/base")
  std::string content;      // the bytes, when `file` is empty
  std::string file;         // else: a file to stream in
  bool executable = false;  // mode 0755 instead of 0644
};

// Writes `members`, in order, to `path` (created or replaced; the caller decided it may be).
// InvalidArgument when a name would be refused by ExtractArchive.
Status WriteArchive(const std::string& path, const std::vector<ArchiveMember>& members);

struct ArchiveLimits {
  int64_t max_member_bytes = int64_t{4} << 30;  // 4 GiB: a large statically linked binary fits
  int64_t max_total_bytes = int64_t{16} << 30;  // everything extracted
  int64_t max_members = 100000;
};

struct ExtractedMember {
  std::string name;     // as in the archive
  std::string path;     // dest/name; "" when `refused`
  int64_t size = 0;     // bytes written; the size its header declares when `refused`
  std::string refused;  // why the gate refused it: nothing of it was written
};

// Asked, once the header rules above have passed and before a byte of the member is written,
// whether to extract it: "" to extract, else why not (the member is then skipped, listed with
// `refused`). Members before it are already in `dest`. The bundle reader's gate holds every member
// to the size the manifest lists for it (opened_bundle.cc).
using MemberGate = std::function<std::string(const std::string& name, int64_t declared_bytes)>;

// Extracts every member of `path` (a regular file: CheckInputFile) into `dest` (an existing,
// empty directory the caller made), in archive order. DataLoss naming the member and the rule it
// broke, or the archive's own error (not a gzip'd tar, truncated, corrupt: the gzip checksum
// catches a flipped bit in the stream).
StatusOr<std::vector<ExtractedMember>> ExtractArchive(const std::string& path, const std::string& dest,
                                                      const ArchiveLimits& limits = {}, const MemberGate& gate = {});

// The first member of `path`, read into memory when it holds at most `max_bytes` (a quick look at
// whether a file is a tare bundle, without extracting anything). DataLoss when it is not a
// gzip'd tar or its first member is larger or not a plain file.
StatusOr<ArchiveMember> ReadFirstMember(const std::string& path, int64_t max_bytes);

// Whether `name` is an acceptable member name (the first rule above); "" if so, else why not.
std::string MemberNameProblem(const std::string& name);

}  // namespace tare::bundle
