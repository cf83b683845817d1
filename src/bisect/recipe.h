// A build recipe: how `tare bisect` turns one commit's source tree into the executable it measures.
// It is declared in the [bisect] table of the repository's tare.toml, or by flags (which win):
//
//   [bisect]
//   build = "cmake -S {src} -B {build} -DCMAKE_BUILD_TYPE=Release && cmake --build {build} --target bm"
//   executable = "{build}/bm"
//   workdir = "{src}"            # the benchmark's working directory (default: {src})
//   args = ["--benchmark_filter=BM_Parse"]   # passed to the benchmark after its own flags
//
// {src} is the commit's own git worktree and {build} its build directory, both owned by tare
// (build_cache.h); the build command runs in {src} through /bin/sh -c, with {src} and {build}
// shell-quoted. The recipe's hash (RecipeHash: the build command and the executable's path as typed,
// never the expanded paths) keys the build cache together with the commit, so changing how a commit
// is built builds it again, and changing only the arguments or working directory does not.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace tare::bisect {

struct BuildRecipe {
  std::string build;              // shell command; {src}, {build} expanded (shell-quoted)
  std::string executable;         // path; {src}, {build} expanded (absolute after expansion)
  std::string workdir = "{src}";  // the benchmark's working directory
  std::vector<std::string> args;  // the benchmark's arguments; {src}, {build} expanded
  std::string source;             // where it came from: "tare.toml" path, or "flags"
};

// The [bisect] table of the TOML document `text` (read from `path`); an empty recipe when there is
// none. InvalidArgument naming the key for a value of the wrong type or an unknown key.
StatusOr<BuildRecipe> ParseRecipe(const std::string& text, const std::string& path);

// What the flags say over the file (empty: not given).
struct RecipeFlags {
  std::string build, executable, workdir;
  std::vector<std::string> args;
  bool args_given = false;
};
// The recipe: the [bisect] table of `config_path` ("" for none: flags alone), then the flags over
// it; checked (CheckRecipe). `source` says where it came from.
StatusOr<BuildRecipe> LoadRecipe(const std::string& config_path, const RecipeFlags& flags);

// A recipe that can build: FailedPrecondition naming what to add (the build command, the
// executable) and where, otherwise Ok.
Status CheckRecipe(const BuildRecipe& recipe);

// The cache key's recipe part: sha256 hex of the build command and the executable as typed.
std::string RecipeHash(const BuildRecipe& recipe);

// `text` with {src} and {build} replaced by `src` and `build`; `quote` shell-quotes them (the
// build command), otherwise they are put in as they are (paths, arguments).
std::string ExpandRecipeText(const std::string& text, const std::string& src, const std::string& build, bool quote);

}  // namespace tare::bisect
