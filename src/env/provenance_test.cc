#include "env/provenance.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tare::env {
namespace {

// A real git checkout in a temporary directory: commit, branch, dirty state and a detached head.
class ProvenanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "provenance_" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int Sh(const std::string& cmd) {
    const std::string full = "cd '" + dir_ + "' && " + cmd + " >/dev/null 2>&1";
    return std::system(full.c_str());
  }
  std::string Out(const std::string& cmd) {
    std::string text;
    FILE* f = popen(("cd '" + dir_ + "' && " + cmd).c_str(), "r");
    char buf[256];
    while (f != nullptr && fgets(buf, sizeof buf, f) != nullptr) text += buf;
    if (f != nullptr) pclose(f);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }
  std::string dir_;
};

TEST_F(ProvenanceTest, ReadsCommitBranchAndDirtyStateFromGit) {
  ASSERT_EQ(Sh("git --version"), 0) << "git is not installed (scripts/deps.sh installs it)";
  ASSERT_EQ(Sh("git init -q -b feature-x . && git config user.email t@e && git config user.name t && "
               "git config core.hooksPath /dev/null && echo a > f.txt && git add f.txt && git commit -q -m one"),
            0);
  const std::string head = Out("git rev-parse HEAD");
  ASSERT_EQ(head.size(), 40u);

  Provenance p = DetectGitProvenance(dir_);
  EXPECT_EQ(p.commit, head);
  EXPECT_EQ(p.branch, "feature-x");
  ASSERT_TRUE(p.dirty.has_value());
  EXPECT_FALSE(*p.dirty);

  std::ofstream(dir_ + "/f.txt") << "b\n";
  p = DetectGitProvenance(dir_);
  ASSERT_TRUE(p.dirty.has_value());
  EXPECT_TRUE(*p.dirty);
  // An untracked file alone does not make a checkout dirty.
  ASSERT_EQ(Sh("git checkout -q f.txt && echo x > untracked.txt"), 0);
  p = DetectGitProvenance(dir_);
  ASSERT_TRUE(p.dirty.has_value());
  EXPECT_FALSE(*p.dirty);

  // Detached, as CI checks out: no branch, unless the CI says which.
  ASSERT_EQ(Sh("git checkout -q --detach"), 0);
  unsetenv("GITHUB_HEAD_REF");
  unsetenv("GITHUB_REF_NAME");
  unsetenv("CI_COMMIT_REF_NAME");
  unsetenv("BRANCH_NAME");
  p = DetectGitProvenance(dir_);
  EXPECT_EQ(p.commit, head);
  EXPECT_EQ(p.branch, "");
  setenv("GITHUB_REF_NAME", "pr-42", 1);
  p = DetectGitProvenance(dir_);
  EXPECT_EQ(p.branch, "pr-42");
  unsetenv("GITHUB_REF_NAME");

  // Declared values win; a declared other commit makes git's dirty state unknown.
  DeclaredProvenance d;
  d.branch = "main";
  d.tags = {"os=deb12", "job=nightly"};
  p = ResolveProvenance(d, dir_);
  EXPECT_EQ(p.commit, head);
  EXPECT_EQ(p.branch, "main");
  EXPECT_EQ(p.tags, (std::vector<std::pair<std::string, std::string>>{{"job", "nightly"}, {"os", "deb12"}}));
  d.commit = "ABCDEF12";
  p = ResolveProvenance(d, dir_);
  EXPECT_EQ(p.commit, "abcdef12");
  EXPECT_FALSE(p.dirty.has_value());
  d.no_git = true;
  d.commit.clear();
  p = ResolveProvenance(d, dir_);
  EXPECT_EQ(p.commit, "");
}

// git asked on a thread of its own (StartGitProvenance before the command line is parsed, as main()
// does), its answer taken with the declared values; a second PendingProvenance asks git again on
// another thread. The TSan stage (scripts/tsan.sh) runs this: the hand-over is the future.
TEST_F(ProvenanceTest, GitAskedOnAThreadOfItsOwnAnswersAsAskedInPlace) {
  ASSERT_EQ(Sh("git init -q -b feature-y . && git config user.email t@e && git config user.name t && "
               "git config core.hooksPath /dev/null && echo a > f.txt && git add f.txt && git commit -q -m one"),
            0);
  const std::string head = Out("git rev-parse HEAD");
  ASSERT_EQ(head.size(), 40u);
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(dir_);  // both read "."
  StartGitProvenance();
  DeclaredProvenance d;
  d.tags = {"job=nightly"};
  const Provenance started = PendingProvenance(d).get();
  const Provenance again = PendingProvenance({}).get();
  std::filesystem::current_path(was);
  EXPECT_EQ(started.commit, head);
  EXPECT_EQ(started.branch, "feature-y");
  EXPECT_EQ(started.tags, (std::vector<std::pair<std::string, std::string>>{{"job", "nightly"}}));
  EXPECT_EQ(again.commit, head);
  EXPECT_TRUE(again.tags.empty());
}

// A checkout before its first commit has no commit to record: everything unknown, as outside one.
TEST_F(ProvenanceTest, ACheckoutWithoutCommitsIsUnknown) {
  ASSERT_EQ(Sh("git init -q -b main . && echo a > f.txt && git add f.txt"), 0);
  Provenance p = DetectGitProvenance(dir_);
  EXPECT_EQ(p.commit, "");
  EXPECT_EQ(p.branch, "");
  EXPECT_FALSE(p.dirty.has_value());
}

TEST_F(ProvenanceTest, OutsideACheckoutEverythingIsUnknown) {
  Provenance p = DetectGitProvenance(dir_);
  EXPECT_EQ(p.commit, "");
  EXPECT_EQ(p.branch, "");
  EXPECT_FALSE(p.dirty.has_value());
  p = DetectGitProvenance(dir_ + "/does-not-exist");
  EXPECT_EQ(p.commit, "");
}

TEST(DeclaredProvenance, BadValuesNameTheFlag) {
  auto check = [](DeclaredProvenance d) { return ValidateDeclaredProvenance(d); };
  EXPECT_TRUE(check({"0123abcd", "main", {"a=b", "c="}, false}).ok());
  for (const auto& [d, flag] :
       std::vector<std::pair<DeclaredProvenance, std::string>>{{{"xyz", "", {}, false}, "--commit"},
                                                               {{"abc", "", {}, false}, "--commit"},
                                                               {{"", "a\nb", {}, false}, "--branch"},
                                                               {{"", "", {"novalue"}, false}, "--tag"},
                                                               {{"", "", {"=v"}, false}, "--tag"},
                                                               {{"", "", {"k=1", "k=2"}, false}, "--tag"},
                                                               {{"", "", {"k=\x1b]0;x\a"}, false}, "--tag"}}) {
    Status s = check(d);
    ASSERT_FALSE(s.ok()) << flag;
    EXPECT_NE(s.message().find(flag), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace tare::env
