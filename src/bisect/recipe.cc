#include "bisect/recipe.h"

#include <fmt/format.h>

#include "base/files.h"
#include "base/sha256.h"
#include "base/shell_quote.h"
#include "base/toml_read.h"

namespace tare::bisect {

StatusOr<BuildRecipe> LoadRecipe(const std::string& config_path, const RecipeFlags& f) {
  BuildRecipe r;
  if (!config_path.empty()) {
    TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(config_path));
    TARE_ASSIGN_OR_RETURN(r, ParseRecipe(text, config_path));
  }
  if (!f.build.empty()) r.build = f.build;
  if (!f.executable.empty()) r.executable = f.executable;
  if (!f.workdir.empty()) r.workdir = f.workdir;
  if (f.args_given) r.args = f.args;
  if (!f.build.empty() || !f.executable.empty()) r.source = config_path.empty() ? "flags" : config_path + " and flags";
  TARE_RETURN_IF_ERROR(CheckRecipe(r));
  return r;
}

StatusOr<BuildRecipe> ParseRecipe(const std::string& text, const std::string& path) {
  BuildRecipe r;
  r.source = path;
  TARE_ASSIGN_OR_RETURN(toml::table root, ParseToml(text, path));
  TARE_ASSIGN_OR_RETURN(const toml::table* t, TomlSection(root, "bisect", path));
  if (t == nullptr) return r;
  for (const auto& [key, value] : *t) {
    const std::string k(key.str());
    if (k == "build" || k == "executable" || k == "workdir") {
      const auto* s = value.as_string();
      if (s == nullptr) return Status::InvalidArgument(fmt::format("{}: bisect.{} must be a string", path, k));
      (k == "build" ? r.build : k == "executable" ? r.executable : r.workdir) = s->get();
    } else if (k == "args") {
      const toml::array* a = value.as_array();
      if (a == nullptr)
        return Status::InvalidArgument(fmt::format("{}: bisect.args must be an array of strings", path));
      for (const auto& e : *a) {
        const auto* s = e.as_string();
        if (s == nullptr)
          return Status::InvalidArgument(fmt::format("{}: bisect.args must be an array of strings", path));
        r.args.push_back(s->get());
      }
    } else {
      return Status::InvalidArgument(fmt::format(
          "{}: unknown key bisect.{}; a recipe has build, executable, workdir and args (docs/bisect.md)", path, k));
    }
  }
  return r;
}

Status CheckRecipe(const BuildRecipe& recipe) {
  if (recipe.build.empty() || recipe.executable.empty()) {
    return Status::FailedPrecondition(fmt::format(
        "no build recipe{}: give --build 'CMD' and --executable PATH, or add to tare.toml\n"
        "  [bisect]\n  build = \"cmake -S {{src}} -B {{build}} && cmake --build {{build}} --target my_bench\"\n"
        "  executable = \"{{build}}/my_bench\"\n(docs/bisect.md)",
        recipe.build.empty() ? " (the build command is missing)" : " (the executable is missing)"));
  }
  return Status::Ok();
}

std::string RecipeHash(const BuildRecipe& recipe) {
  // Length-prefixed, so no two recipes share a hash by moving text between the fields.
  return Sha256Hex(fmt::format("tare.recipe/1\n{}\n{}{}\n{}", recipe.build.size(), recipe.build,
                               recipe.executable.size(), recipe.executable));
}

std::string ExpandRecipeText(const std::string& text, const std::string& src, const std::string& build, bool quote) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 5, "{src}") == 0) {
      out += quote ? ShellQuote(src) : src;
      i += 5;
    } else if (text.compare(i, 7, "{build}") == 0) {
      out += quote ? ShellQuote(build) : build;
      i += 7;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace tare::bisect
