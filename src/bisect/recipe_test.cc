// Build recipes: the [bisect] table read, its errors naming the key, the hash keyed on what builds.
#include "bisect/recipe.h"

#include <gtest/gtest.h>

namespace tare::bisect {
namespace {

TEST(Recipe, ReadsTheBisectTable) {
  auto r = ParseRecipe(R"([bisect]
build = "make -C {src} O={build}"
executable = "{build}/bm"
workdir = "{build}"
args = ["--x", "{src}/data"]
)",
                       "tare.toml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->build, "make -C {src} O={build}");
  EXPECT_EQ(r->executable, "{build}/bm");
  EXPECT_EQ(r->workdir, "{build}");
  EXPECT_EQ(r->args, (std::vector<std::string>{"--x", "{src}/data"}));
  EXPECT_TRUE(CheckRecipe(*r).ok());
}

TEST(Recipe, NoTableIsAnEmptyRecipeThatSaysWhatToAdd) {
  auto r = ParseRecipe("[compare]\n", "tare.toml");
  ASSERT_TRUE(r.ok());
  Status s = CheckRecipe(*r);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("--build"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("[bisect]"), std::string::npos) << s.message();
}

TEST(Recipe, WrongTypesAndUnknownKeysNameTheKey) {
  auto a = ParseRecipe("[bisect]\nbuild = 3\n", "t.toml");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("bisect.build"), std::string::npos);
  auto b = ParseRecipe("[bisect]\nexecutabel = \"x\"\n", "t.toml");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("bisect.executabel"), std::string::npos);
}

TEST(Recipe, HashChangesWithTheBuildNotTheArguments) {
  BuildRecipe a;
  a.build = "make";
  a.executable = "{build}/x";
  BuildRecipe b = a;
  b.args = {"--other"};
  b.workdir = "/tmp";
  EXPECT_EQ(RecipeHash(a), RecipeHash(b));
  b.build = "make -j2";
  EXPECT_NE(RecipeHash(a), RecipeHash(b));
  BuildRecipe c;
  c.build = "mak";
  c.executable = "e{build}/x";
  EXPECT_NE(RecipeHash(a), RecipeHash(c));
}

TEST(Recipe, ExpandsPlaceholdersQuotedForTheShell) {
  EXPECT_EQ(ExpandRecipeText("cc {src}/a.cc -o {build}/a", "/w t", "/b", true), "cc '/w t'/a.cc -o /b/a");
  EXPECT_EQ(ExpandRecipeText("{build}/a {x}", "/s", "/b c", false), "/b c/a {x}");
}

}  // namespace
}  // namespace tare::bisect
