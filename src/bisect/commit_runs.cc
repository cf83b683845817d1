#include "bisect/commit_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "base/files.h"
#include "base/terminal_text.h"
#include "bisect/build_cache.h"
#include "proc/spawner.h"

namespace tare::bisect {
namespace {

// The tag each --commits run carries: the sha256 of the executable it measured, so a rerun knows
// which commits this store already has (and a rebuilt executable is measured again).
constexpr char kBuildTag[] = "tare.commits.build";

std::string ShortCommit(const std::string& id) { return id.substr(0, 12); }

std::string TagOf(const RunRecord& run, const std::string& key) {
  for (const auto& [k, v] : run.provenance.tags) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace

std::vector<size_t> ChosenCommits(size_t path_length, int64_t every) {
  // Index 0 is A; 1..path_length the path, the last being B.
  std::vector<size_t> out;
  const size_t step = every < 1 ? 1 : static_cast<size_t>(every);
  for (size_t i = 0; i <= path_length; i += step) out.push_back(i);
  if (out.back() != path_length) out.push_back(path_length);
  return out;
}

StatusOr<CommitRunsReport> RunCommits(proc::Spawner& spawner, const CommitRunsSpec& spec, store::Store& store) {
  const size_t dots = spec.range.find("..");
  if (dots == std::string::npos || dots == 0 || dots + 2 >= spec.range.size() ||
      spec.range.find("..", dots + 2) != std::string::npos || spec.range[dots + 2] == '.') {
    return Status::InvalidArgument(
        fmt::format("--commits '{}': give a range OLD..NEW of two commits, e.g. --commits v1.2..main or HEAD~30..HEAD",
                    spec.range));
  }
  if (spec.every < 1) return Status::InvalidArgument("--every must be at least 1 (every Nth commit of the range)");
  TARE_RETURN_IF_ERROR(CheckRecipe(spec.recipe));
  TARE_ASSIGN_OR_RETURN(std::unique_ptr<Checkout> checkout, Checkout::Open(spawner, spec.repo, "tare-commits"));
  Git& git = checkout->git();
  TARE_ASSIGN_OR_RETURN(std::string first, git.ResolveCommit(spec.range.substr(0, dots)));
  TARE_ASSIGN_OR_RETURN(std::string last, git.ResolveCommit(spec.range.substr(dots + 2)));
  if (first == last) return Status::InvalidArgument(fmt::format("--commits {}: both ends are one commit", spec.range));
  TARE_ASSIGN_OR_RETURN(bool ancestor, git.IsAncestor(first, last));
  if (!ancestor) {
    return Status::InvalidArgument(
        fmt::format("--commits {}: {} is not an ancestor of {}; write the older commit first (OLD..NEW)", spec.range,
                    ShortCommit(first), ShortCommit(last)));
  }
  TARE_ASSIGN_OR_RETURN(std::vector<std::string> path, git.AncestryPath(first, last));
  std::vector<std::string> commits = {first};
  commits.insert(commits.end(), path.begin(), path.end());

  CommitRunsReport report;
  TARE_ASSIGN_OR_RETURN(report.first, git.Describe(first));
  TARE_ASSIGN_OR_RETURN(report.last, git.Describe(last));
  // What this store already has from earlier --commits runs: complete runs with the build tag.
  TARE_ASSIGN_OR_RETURN(std::vector<RunRecord> stored, store.ListRuns(1'000'000));

  BuildCache cache(spawner, git, spec.recipe, spec.cache_dir);
  const std::vector<size_t> chosen = ChosenCommits(commits.size() - 1, spec.every);
  for (size_t k = 0; k < chosen.size(); ++k) {
    const std::string& id = commits[chosen[k]];
    CommitRun cr;
    TARE_ASSIGN_OR_RETURN(cr.commit, git.Describe(id));
    if (spec.progress) {
      spec.progress(fmt::format("tare: commit {} of {}: {} {}; {} built, {} from the cache", k + 1, chosen.size(),
                                ShortCommit(id), cr.commit.subject, report.builds, report.cache_hits));
    }
    TARE_ASSIGN_OR_RETURN(BuiltCommit built, cache.Get(id));
    cr.cache_hit = built.cache_hit;
    (built.cache_hit ? report.cache_hits : report.builds)++;
    if (!built.ok) {
      cr.failure = built.failure;
      if (spec.progress) spec.progress(fmt::format("tare: skipping {}: {}", ShortCommit(id), built.failure));
      report.runs.push_back(std::move(cr));
      continue;
    }
    cr.built = true;
    for (const auto& run : stored) {
      if (run.status == RunStatus::kComplete && run.provenance.commit == id &&
          TagOf(run, kBuildTag) == built.executable_sha256 && run.command_line == spec.run.command_line) {
        cr.run_id = run.id;
        cr.already_stored = true;
      }
    }
    if (cr.already_stored) {
      report.runs.push_back(std::move(cr));
      continue;
    }
    session::RunSpec rs = spec.run;
    // What tare run's flags declared (--tag ...), then the commit built here over what git says of
    // the checkout tare runs in.
    if (rs.pending_provenance.valid()) rs.provenance = rs.pending_provenance.get();
    rs.target.argv = {built.executable};
    for (auto& a : cache.Args(built)) rs.target.argv.push_back(a);
    rs.target.cwd = cache.Workdir(built);
    rs.provenance.commit = id;
    rs.provenance.branch = spec.branch;  // as declared (--branch), never the checkout's
    rs.provenance.dirty = false;
    rs.provenance.tags.emplace_back(kBuildTag, built.executable_sha256);
    std::sort(rs.provenance.tags.begin(), rs.provenance.tags.end());
    rs.pending_provenance = {};
    session::PlainRun run(std::move(rs), spawner);
    TARE_RETURN_IF_ERROR(run.Prepare().WithContext(fmt::format("at commit {}", ShortCommit(id))));
    TARE_ASSIGN_OR_RETURN(session::RunOutcome outcome, run.Run(store));
    if (!outcome.error.ok()) return outcome.error;
    cr.run_id = outcome.run_id;
    cr.samples = outcome.samples;
    cr.failed = outcome.failed;
    report.failed_samples += outcome.failed;
    report.runs.push_back(std::move(cr));
    if (outcome.interrupted || proc::Interrupted()) {
      report.interrupted = true;
      break;
    }
  }
  return report;
}

std::string RenderCommitRuns(const CommitRunsReport& r, const std::string& store_location) {
  std::string out = fmt::format("tare run --commits: {} commits from {} to {}\n", r.runs.size(),
                                ShortCommit(r.first.id), ShortCommit(r.last.id));
  size_t stored = 0;
  for (const auto& c : r.runs) {
    std::string what;
    if (!c.built) {
      what = "not built: " + c.failure;
    } else if (c.already_stored) {
      what = fmt::format("run {} (stored before)", c.run_id);
      ++stored;
    } else {
      what = fmt::format("run {}: {} sample{}{}", c.run_id, c.samples, c.samples == 1 ? "" : "s",
                         c.failed > 0 ? fmt::format(", {} failed", c.failed) : "");
      ++stored;
    }
    out += fmt::format("  {} {}: {}\n", ShortCommit(c.commit.id), TerminalText(c.commit.subject), TerminalText(what));
  }
  out += fmt::format("{} runs in {}, each with its commit; {} built now, {} from the cache{}\n", stored,
                     TerminalText(store_location), r.builds, r.cache_hits,
                     r.interrupted ? "; interrupted: the same command again goes on from the next commit" : "");
  out += "read them with: tare history BENCH, tare compare, tare site\n";
  return out;
}

}  // namespace tare::bisect
