// Provenance: which commit, branch and working-tree state the measured code came from, read from
// the git checkout tare runs in, and merged with what the user declares (--commit, --branch,
// --tag K=V; docs/compare.md, "Which runs"). Runs carry it so that `tare compare main feature-x`
// and `tare runs` can select and show them by commit, branch or tag.
//
// Detection runs `git` (found on PATH) once in `dir`, with a 5 s limit and GIT_OPTIONAL_LOCKS=0
// so that it never takes the index lock of a checkout someone is using:
//   git status --porcelain=v2 --branch --no-ahead-behind --untracked-files=no
//     "# branch.oid" -> commit, "# branch.head" -> branch ("" when detached), any change -> dirty
// `tare run` asks it on a thread of its own, beside the rest of its start-up (RunSpec::pending_provenance),
// started before its command line is parsed (StartGitProvenance below).
// No git, no checkout, or a git that fails: the fields stay unknown — provenance is a nicety that
// never stops a measurement. CI systems check out detached heads: the branch then comes from
// $GITHUB_HEAD_REF, $GITHUB_REF_NAME, $CI_COMMIT_REF_NAME (GitLab) or $BRANCH_NAME (Jenkins),
// in that order, when set.
#pragma once

#include <future>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/run.h"

namespace tare::env {

// What git says about `dir` (see above). Never fails; unknown fields are empty / nullopt.
Provenance DetectGitProvenance(const std::string& dir);

struct DeclaredProvenance {
  std::string commit;             // --commit (hex, 4..64 digits)
  std::string branch;             // --branch
  std::vector<std::string> tags;  // --tag KEY=VALUE, repeatable
  bool no_git = false;            // --no-git: do not ask git
};

// Checks the declared values: InvalidArgument naming the flag (a commit that is not hex, a tag
// without '=', an empty key, a key given twice, control characters).
Status ValidateDeclaredProvenance(const DeclaredProvenance& declared);

// Detected (unless no_git) then overridden by what was declared; tags sorted by key.
Provenance ResolveProvenance(const DeclaredProvenance& declared, const std::string& dir);
// The same from what DetectGitProvenance already said (ignored when declared.no_git).
Provenance ResolveProvenance(const DeclaredProvenance& declared, Provenance detected);

// Starts DetectGitProvenance(".") on a thread of its own, once, before the command line is even
// parsed: in a checkout git is the longest part of a run's start, and this starts it ~2 ms sooner
// (bench/README.md). Where no thread can be had, it does nothing and git is asked later.
void StartGitProvenance();
// ResolveProvenance(declared, ".") as a future: the answer StartGitProvenance started (taken, so
// a second call asks again), else git asked now on a thread of its own, else — no thread to be
// had — answered at once. The declared values are combined with git's on the caller's thread.
std::shared_future<Provenance> PendingProvenance(const DeclaredProvenance& declared);

}  // namespace tare::env
