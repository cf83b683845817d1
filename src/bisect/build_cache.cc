#include "bisect/build_cache.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"
#include "base/terminal_text.h"

namespace tare::bisect {
namespace fs = std::filesystem;

namespace {
// Lines of a failed build's log kept with it, and shown.
constexpr size_t kLogTailLines = 20;
}  // namespace

BuildCache::BuildCache(proc::Spawner& spawner, Git& git, BuildRecipe recipe, std::string cache_dir)
    : spawner_(spawner),
      git_(git),
      recipe_(std::move(recipe)),
      recipe_hash_(RecipeHash(recipe_)),
      dir_(std::move(cache_dir)) {}

std::string BuildCache::Key(const std::string& commit) const {
  return Sha256Hex(fmt::format("tare.build/1\n{}\n{}", commit, recipe_hash_));
}

std::string BuildCache::Workdir(const BuiltCommit& b) const {
  return ExpandRecipeText(recipe_.workdir.empty() ? "{src}" : recipe_.workdir, b.src, b.build_dir, false);
}

std::vector<std::string> BuildCache::Args(const BuiltCommit& b) const {
  std::vector<std::string> out;
  for (const auto& a : recipe_.args) out.push_back(ExpandRecipeText(a, b.src, b.build_dir, false));
  return out;
}

StatusOr<BuiltCommit> BuildCache::Get(const std::string& commit) {
  const std::string key = Key(commit);
  BuiltCommit b;
  b.commit = commit;
  b.src = dir_ + "/worktrees/" + commit;
  b.build_dir = dir_ + "/builds/" + key;
  const std::string exe_dir = dir_ + "/exe/" + key;
  b.record_dir = exe_dir;
  const std::string record = exe_dir + "/build.json";
  std::error_code ec;
  if (fs::exists(record, ec)) {
    TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(record));
    // A record tare cannot read (cut short, edited) is no record: the commit is built again.
    auto cached = ReadJsonText<BuiltCommit>(text, record, [&](const nlohmann::json& j) {
      BuiltCommit c = b;
      c.commit = JsonAt<std::string>(j, "commit");
      c.ok = JsonAt<bool>(j, "ok");
      c.failure = JsonAtOr<std::string>(j, "failure", "");
      c.executable_sha256 = JsonAtOr<std::string>(j, "executable_sha256", "");
      c.log_tail = JsonAtOr<std::vector<std::string>>(j, "log_tail", {});
      return c;
    });
    if (cached.ok() && cached->commit == commit) {
      cached->cache_hit = true;
      if (!cached->ok) return *cached;
      cached->executable = exe_dir + "/" + fs::path(recipe_.executable).filename().string();
      auto sha = Sha256File(cached->executable);
      if (sha.ok() && *sha == cached->executable_sha256) return *cached;
      // The copy is gone or changed: build again.
    }
  }

  // Not cached (or its copy is gone): build it now.
  fs::create_directories(dir_ + "/worktrees", ec);
  fs::create_directories(b.build_dir, ec);
  fs::create_directories(exe_dir, ec);
  if (ec)
    return Status::FailedPrecondition(fmt::format("cannot create the build cache under {}: {}", dir_, ec.message()));
  if (!fs::exists(b.src + "/.git", ec)) {
    fs::remove_all(b.src, ec);
    TARE_RETURN_IF_ERROR(git_.AddWorktree(commit, b.src));
  }
  const std::string log = exe_dir + "/build.log";
  const std::string command = ExpandRecipeText(recipe_.build, b.src, b.build_dir, /*quote=*/true);
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, RunShell(spawner_, command, b.src, log, kBuildTimeoutNs));
  if (r.interrupted) return Status::Cancelled("interrupted while building " + commit.substr(0, 12));
  const std::string exe = ExpandRecipeText(recipe_.executable, b.src, b.build_dir, false);
  if (!r.ok()) {
    b.failure = "the build command failed: " + (r.started ? r.Describe() : r.spawn_error);
  } else if (!fs::is_regular_file(exe, ec)) {
    b.failure = "the build succeeded but did not produce the executable " + exe;
  }
  if (!b.failure.empty()) {
    auto text = ReadFile(log);
    b.log_tail = LastLines(text.ok() ? *text : std::string(), kLogTailLines, 4000);
  } else {
    b.executable = exe_dir + "/" + fs::path(exe).filename().string();
    fs::copy_file(exe, b.executable, fs::copy_options::overwrite_existing, ec);
    if (ec)
      return Status::FailedPrecondition(fmt::format("cannot copy {} into the build cache: {}", exe, ec.message()));
    fs::permissions(b.executable, fs::perms::owner_exec | fs::perms::owner_read | fs::perms::owner_write,
                    fs::perm_options::add, ec);
    TARE_ASSIGN_OR_RETURN(b.executable_sha256, Sha256File(b.executable));
    b.ok = true;
  }
  nlohmann::json j = {{"format", "tare.build/1"},
                      {"commit", commit},
                      {"recipe_hash", recipe_hash_},
                      {"ok", b.ok},
                      {"failure", b.failure},
                      {"log_tail", b.log_tail},
                      {"executable_sha256", b.executable_sha256}};
  TARE_RETURN_IF_ERROR(WriteFileAtomic(record, DumpJson(j)));
  return b;
}

}  // namespace tare::bisect
