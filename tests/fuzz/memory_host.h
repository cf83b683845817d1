// A Host (src/env/host.h) whose files come from the fuzzer's input, in `head`'s multi-file form:
//   ==> /proc/self/cgroup <==
//   0::/a/b
//   ==> /proc/loadavg <==
//   0.52 0.58 0.59 1/467 12345
// Each "==> PATH <==" line starts a file; the lines after it, up to the next, are its content.
// Shared by the harnesses of the env readers (cgroup_fuzz.cc, host_facts_fuzz.cc).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/host.h"

namespace tare::fuzz {

class MemoryHost : public tare::env::Host {
 public:
  explicit MemoryHost(std::string_view text) {
    std::string* current = nullptr;
    while (!text.empty()) {
      size_t nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
      if (line.size() >= 8 && line.substr(0, 4) == "==> " && line.substr(line.size() - 4) == " <==") {
        current = &files_[std::string(line.substr(4, line.size() - 8))];
      } else if (current != nullptr) {
        current->append(line).push_back('\n');
      }
    }
  }
  std::optional<std::string> ReadFile(const std::string& path) const override {
    auto it = files_.find(path);
    if (it == files_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> ListDir(const std::string& path) const override {
    std::vector<std::string> names;
    std::string prefix = path.empty() || path.back() == '/' ? path : path + "/";
    for (const auto& [file, unused] : files_) {
      if (file.rfind(prefix, 0) != 0) continue;
      std::string rest = file.substr(prefix.size());
      std::string name = rest.substr(0, rest.find('/'));
      if (!name.empty() && (names.empty() || names.back() != name)) names.push_back(name);
    }
    return names;
  }
  tare::StatusOr<std::string> FileSha256(const std::string& path) const override {
    return tare::Status::NotFound("no file hashing in the fuzz host: " + path);
  }
  std::string KernelRelease() const override { return "6.1.0-fuzz"; }
  std::string GlibcVersion() const override { return "2.36"; }
  tare::env::LoadedLibraries Libraries() const override { return {}; }
  std::vector<std::pair<std::string, std::string>> AllocatorEnv() const override { return {}; }
  std::optional<std::string> ValgrindVersion() const override { return std::nullopt; }

 private:
  std::map<std::string, std::string> files_;
};

}  // namespace tare::fuzz
