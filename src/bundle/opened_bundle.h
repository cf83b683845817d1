// A bundle opened for reading: extracted into a private temporary directory (removed when the
// OpenedBundle goes away) and checked member by member against its manifest. `tare bundle verify`,
// `tare import` and `tare replay` all start here, and read nothing a check has not passed.
//
// Checks, every one reported (not just the first):
//   - the archive is a gzip'd tar whose members are plain files with safe names (archive.h);
//   - manifest.sha256 holds the sha256 of manifest.json, and the manifest parses;
//   - every member the manifest lists is present with its size and sha256;
//   - no member is present that the manifest does not list;
//   - every bundled executable and library has the sha256 the run recorded for it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "bundle/manifest.h"

namespace tare::bundle {

class OpenedBundle {
 public:
  OpenedBundle() = default;
  OpenedBundle(OpenedBundle&& other) noexcept;
  OpenedBundle& operator=(OpenedBundle&& other) noexcept;
  OpenedBundle(const OpenedBundle&) = delete;
  OpenedBundle& operator=(const OpenedBundle&) = delete;
  ~OpenedBundle();

  const Manifest& manifest() const { return manifest_; }
  // The extracted file of a member, or "" when the bundle has no such member.
  std::string PathOf(const std::string& member) const;
  StatusOr<std::string> Read(const std::string& member) const;
  // The directory everything was extracted to (private to this process).
  const std::string& dir() const { return dir_; }

 private:
  friend struct BundleOpener;
  std::string temp_;  // what to remove
  std::string dir_;
  Manifest manifest_;
  std::map<std::string, std::string> paths_;  // member -> extracted file
};

struct VerifyResult {
  std::vector<std::string> problems;  // each names the member and what is wrong; empty: verified
  int64_t members = 0;                // members checked
  int64_t bytes = 0;
};

// Opens and verifies `path`. With problems, `*result` lists them and the Status is DataLoss with
// the first few; `result` may be null.
StatusOr<OpenedBundle> OpenBundle(const std::string& path, VerifyResult* result = nullptr);

}  // namespace tare::bundle
