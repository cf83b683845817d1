// DirectoryHost: a machine served from a snapshot tree (layout in host.h).
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "base/files.h"
#include "base/sha256.h"
#include "env/host.h"

namespace tare::env {

std::optional<std::string> DirectoryHost::ReadFile(const std::string& path) const {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(Under(path), ec)) return std::nullopt;
  auto contents = tare::ReadFile(Under(path));
  if (!contents.ok()) return std::nullopt;
  return std::move(contents).value();
}

std::vector<std::string> DirectoryHost::ListDir(const std::string& path) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(Under(path), ec)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

StatusOr<std::string> DirectoryHost::FileSha256(const std::string& path) const { return Sha256File(Under(path)); }

std::string DirectoryHost::ProcessFact(const std::string& name) const {
  return ReadFirstLine(Under("/_process/" + name)).value_or("");
}

std::string DirectoryHost::KernelRelease() const { return ProcessFact("kernel_release"); }

std::string DirectoryHost::GlibcVersion() const { return ProcessFact("glibc_version"); }

LoadedLibraries DirectoryHost::Libraries() const { return {ProcessFact("libc_path"), ProcessFact("loader_path")}; }

std::vector<std::pair<std::string, std::string>> DirectoryHost::AllocatorEnv() const {
  std::vector<std::string> entries;
  std::istringstream in(ReadFile("/_process/environ").value_or(""));
  for (std::string line; std::getline(in, line);) entries.push_back(line);
  return AllocatorEnvironment(entries);
}

std::optional<std::string> DirectoryHost::ValgrindVersion() const {
  return ReadFirstLine(Under("/_process/valgrind_version"));
}

}  // namespace tare::env
