// The git questions `tare bisect` asks of the user's repository, and the worktrees it checks
// commits out into. git runs through the spawn helper (proc::Spawner) as `/bin/sh -c 'exec git ...'`
// (PATH searched by the shell), with GIT_OPTIONAL_LOCKS=0 and a 60 s limit; the user's working
// tree, index and HEAD are never touched: each commit gets a detached worktree of its own
// (`git worktree add --detach`), which only adds an entry under .git/worktrees.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "proc/spawner.h"

namespace tare::bisect {

struct CommitInfo {
  std::string id;           // full hex
  std::string subject;      // first line of the message
  std::string author;       // name
  std::string author_date;  // ISO 8601, as `git log --format=%aI` writes it
};

class Git {
 public:
  // `repo`: a directory inside the user's checkout; `scratch`: a directory for git's output.
  Git(proc::Spawner& spawner, std::string repo, std::string scratch)
      : spawner_(spawner), repo_(std::move(repo)), scratch_(std::move(scratch)) {}

  // The full id of `rev` (a hash, branch, tag, HEAD~3...). NotFound naming the revision otherwise.
  StatusOr<std::string> ResolveCommit(const std::string& rev);
  // Whether `ancestor` is an ancestor of (or equal to) `descendant`.
  StatusOr<bool> IsAncestor(const std::string& ancestor, const std::string& descendant);
  // The commits from good (exclusive) to bad (inclusive), oldest first:
  //   git rev-list --first-parent --ancestry-path --reverse GOOD..BAD
  // First-parent: a merge is one step, the commits it brought in are not visited one by one.
  StatusOr<std::vector<std::string>> AncestryPath(const std::string& good, const std::string& bad);
  StatusOr<CommitInfo> Describe(const std::string& commit);
  // A detached worktree of `commit` at `path` (which must not exist), and its removal.
  Status AddWorktree(const std::string& commit, const std::string& path);
  // The top of the user's checkout (git rev-parse --show-toplevel).
  StatusOr<std::string> TopLevel();

  // Runs `git -C repo ARGS...`; its stdout when it exits 0, else FailedPrecondition with its
  // stderr's last lines.
  StatusOr<std::string> Run(const std::vector<std::string>& args);

 private:
  proc::Spawner& spawner_;
  std::string repo_;
  std::string scratch_;
};

// What `tare bisect` and `tare run --commits` open first: a scratch directory for git's output
// (removed with this) and git at the top of the checkout `repo` lies in.
class Checkout {
 public:
  static StatusOr<std::unique_ptr<Checkout>> Open(proc::Spawner& spawner, const std::string& repo,
                                                  const std::string& scratch_prefix);
  ~Checkout();
  Checkout(const Checkout&) = delete;
  Checkout& operator=(const Checkout&) = delete;
  Git& git() { return git_; }
  const std::string& scratch() const { return scratch_; }

 private:
  Checkout(proc::Spawner& spawner, std::string top, std::string scratch)
      : scratch_(std::move(scratch)), git_(spawner, std::move(top), scratch_) {}
  std::string scratch_;
  Git git_;
};

// Runs `command` through /bin/sh -c in `cwd` with tare's environment, stdout and stderr both into
// `log_path`; the spawn result. Used for git and for the recipe's build command.
StatusOr<proc::SpawnResult> RunShell(proc::Spawner& spawner, const std::string& command, const std::string& cwd,
                                     const std::string& log_path, int64_t timeout_ns,
                                     const std::vector<std::string>& extra_env = {});

}  // namespace tare::bisect
