#include "bisect/git.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "base/files.h"
#include "base/redact.h"
#include "base/shell_quote.h"
#include "base/terminal_text.h"

namespace tare::bisect {
namespace {

constexpr int64_t kGitTimeoutNs = 60'000'000'000;

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

StatusOr<proc::SpawnResult> RunShell(proc::Spawner& spawner, const std::string& command, const std::string& cwd,
                                     const std::string& log_path, int64_t timeout_ns,
                                     const std::vector<std::string>& extra_env) {
  proc::SpawnRequest req;
  req.argv = {"/bin/sh", "-c", command};
  req.env = EnvironmentWithoutSecrets();
  for (const auto& e : extra_env) req.env.push_back(e);
  req.cwd = cwd;
  req.stdout_path = log_path;
  req.stderr_path = log_path + ".err";
  req.timeout_ns = timeout_ns;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult result, spawner.Run(req));
  // One log, stdout then stderr: the helper captures them into two files.
  auto err = ReadFile(log_path + ".err");
  if (err.ok() && !err->empty()) {
    auto out = ReadFile(log_path);
    TARE_RETURN_IF_ERROR(WriteFileAtomic(log_path, (out.ok() ? *out : std::string()) + *err));
  }
  std::error_code ec;
  std::filesystem::remove(log_path + ".err", ec);
  return result;
}

StatusOr<std::string> Git::Run(const std::vector<std::string>& args) {
  std::string command = "exec git -C " + ShellQuote(repo_);
  for (const auto& a : args) command += " " + ShellQuote(a);
  const std::string out_path = scratch_ + "/git.out";
  proc::SpawnRequest req;
  req.argv = {"/bin/sh", "-c", command};
  req.env = EnvironmentWithoutSecrets();
  req.env.emplace_back("GIT_OPTIONAL_LOCKS=0");
  req.stdout_path = out_path;
  req.stderr_path = scratch_ + "/git.err";
  req.timeout_ns = kGitTimeoutNs;
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult result, spawner_.Run(req));
  if (!result.ok()) {
    auto err = ReadFile(scratch_ + "/git.err");
    std::string said;
    for (const auto& line : LastLines(err.ok() ? *err : std::string(), 3)) said += "\n  " + line;
    return Status::FailedPrecondition(
        fmt::format("git {} in {} failed ({}){}", args.empty() ? "" : args[0], repo_, result.Describe(), said));
  }
  return ReadFile(out_path);
}

StatusOr<std::string> Git::ResolveCommit(const std::string& rev) {
  auto out = Run({"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"});
  if (!out.ok()) {
    return Status::NotFound(fmt::format(
        "'{}' is not a commit of the repository at {}: give a commit id, branch or tag that `git rev-parse` knows "
        "(fetch it first if it is on a remote)",
        rev, repo_));
  }
  return Trim(*out);
}

StatusOr<bool> Git::IsAncestor(const std::string& ancestor, const std::string& descendant) {
  std::string command = "exec git -C " + ShellQuote(repo_) + " merge-base --is-ancestor " + ShellQuote(ancestor) + " " +
                        ShellQuote(descendant);
  TARE_ASSIGN_OR_RETURN(proc::SpawnResult r, RunShell(spawner_, command, "", scratch_ + "/git.log", kGitTimeoutNs));
  if (r.started && r.exited && (r.exit_code == 0 || r.exit_code == 1)) return r.exit_code == 0;
  return Status::FailedPrecondition(fmt::format("git merge-base --is-ancestor failed in {} ({})", repo_, r.Describe()));
}

StatusOr<std::vector<std::string>> Git::AncestryPath(const std::string& good, const std::string& bad) {
  TARE_ASSIGN_OR_RETURN(std::string out,
                        Run({"rev-list", "--first-parent", "--ancestry-path", "--reverse", good + ".." + bad}));
  return SplitLines(out);
}

StatusOr<CommitInfo> Git::Describe(const std::string& commit) {
  TARE_ASSIGN_OR_RETURN(std::string out, Run({"log", "-1", "--format=%H%n%an%n%aI%n%s", commit}));
  std::vector<std::string> lines = SplitLines(out);
  CommitInfo c;
  if (lines.size() > 0) c.id = lines[0];
  if (lines.size() > 1) c.author = lines[1];
  if (lines.size() > 2) c.author_date = lines[2];
  if (lines.size() > 3) c.subject = lines[3];
  return c;
}

Status Git::AddWorktree(const std::string& commit, const std::string& path) {
  auto out = Run({"worktree", "add", "--detach", "--force", path, commit});
  return out.ok() ? Status::Ok() : out.status();
}

StatusOr<std::string> Git::TopLevel() {
  auto out = Run({"rev-parse", "--show-toplevel"});
  if (!out.ok()) {
    return Status::FailedPrecondition(
        fmt::format("{} is not inside a git checkout: run tare bisect in the repository, or give --repo DIR", repo_));
  }
  return Trim(*out);
}

StatusOr<std::unique_ptr<Checkout>> Checkout::Open(proc::Spawner& spawner, const std::string& repo,
                                                   const std::string& scratch_prefix) {
  TARE_ASSIGN_OR_RETURN(std::string scratch, MakeTempDir(scratch_prefix));
  StatusOr<std::string> top = Git(spawner, repo, scratch).TopLevel();
  if (!top.ok()) {
    RemoveTree(scratch);
    return top.status();
  }
  return std::unique_ptr<Checkout>(new Checkout(spawner, *top, scratch));
}

Checkout::~Checkout() { RemoveTree(scratch_); }

}  // namespace tare::bisect
