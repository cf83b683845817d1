#include "bisect/bisect.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

#include "base/files.h"
#include "base/sha256.h"
#include "bisect/culprit_attribution.h"
#include "bisect/build_cache.h"
#include "bisect/count_cache.h"
#include "bisect/search.h"
#include "bisect/time_step.h"
#include "model/metric_names.h"
#include "model/target.h"
#include "session/measurement_setup.h"
#include "session/target_setup.h"
#include "target/measure.h"

namespace tare::bisect {
namespace {

// One commit measured: every benchmark's sim.Ir, or why it could not be.
struct Measured {
  bool ok = false;
  std::string failure;
  std::vector<std::string> log_tail;
  std::map<std::string, double> counts;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> profiles;  // per benchmark
  std::string executable;
  TargetKind kind = TargetKind::kCommand;
  BuiltCommit built;  // the build the benchmarks ran from (wall: what each campaign compares)
};

std::string Short(const std::string& commit) { return commit.substr(0, 12); }

class Bisector {
 public:
  Bisector(proc::Spawner& spawner, const BisectSpec& spec, double allowance, Git& git, BuildCache& cache,
           TimeStepper* stepper, std::string scratch)
      : spawner_(spawner),
        spec_(spec),
        allowance_(allowance),
        git_(git),
        cache_(cache),
        stepper_(stepper),
        scratch_(std::move(scratch)) {}

  // The benchmarks of a built commit's executable, by name (sim set-up done once per executable).
  StatusOr<Measured> Measure(const std::string& commit, const std::vector<std::string>& wanted, bool end) {
    if (auto it = memo_.find(commit); it != memo_.end()) return it->second;
    TARE_ASSIGN_OR_RETURN(BuiltCommit built, cache_.Get(commit));
    (built.cache_hit ? report_.cache_hits : report_.builds)++;
    Measured m;
    if (!built.ok) {
      m.failure = built.failure;
      m.log_tail = built.log_tail;
      if (end) {
        std::string tail;
        for (const auto& l : built.log_tail) tail += "\n  | " + l;
        return Status::FailedPrecondition(fmt::format(
            "the {} end {} does not build with the recipe: {}{}\nfix the recipe ({}), or choose another end",
            commit == good_ ? "good" : "bad", Short(commit), built.failure, tail,
            spec_.recipe.source.empty() ? "flags" : spec_.recipe.source));
      }
      memo_[commit] = m;
      return m;
    }
    session::TargetArgs args;
    args.argv = {built.executable};
    for (auto& a : cache_.Args(built)) args.argv.push_back(a);
    args.cwd = cache_.Workdir(built);
    TARE_ASSIGN_OR_RETURN(target::TargetSpec target, session::ResolveTarget(args));
    m.executable = built.executable;
    m.kind = target.kind;
    m.built = built;
    const bool sim = spec_.instrument == Instrument::kSim;
    target::MeasureOptions options;
    options.instrument = sim ? Instrument::kSim : Instrument::kWall;
    options.workdir = scratch_ + "/measure";
    std::error_code ec;
    std::filesystem::remove_all(options.workdir, ec);
    std::filesystem::create_directories(options.workdir, ec);
    TARE_RETURN_IF_ERROR(session::PrepareInstrument(spawner_, target, &options));
    if (sim && valgrind_sha256_.empty()) {
      TARE_ASSIGN_OR_RETURN(valgrind_sha256_, Sha256File(options.valgrind));
    }
    TARE_ASSIGN_OR_RETURN(std::vector<target::Benchmark> listed, target::ListBenchmarks(spawner_, target, options));
    if (target.kind == TargetKind::kCommand && listed.size() == 1) {
      // A plain command is one benchmark named by its command line, which holds the cached
      // executable's path — another at every commit. It is named by the recipe as typed instead.
      listed[0].name = CommandName();
      if (!wanted.empty() && (wanted.size() != 1 || wanted[0] != listed[0].name)) {
        return Status::NotFound(
            fmt::format("{} is a plain command (no tare or Google Benchmark benchmarks in it): it is one benchmark, "
                        "named '{}'; leave the benchmark names out",
                        spec_.recipe.executable, listed[0].name));
      }
    }
    std::vector<std::string> names = wanted;
    if (names.empty()) {
      for (const auto& b : listed) names.push_back(b.name);
    }
    m.ok = true;
    bool ran_valgrind = false;
    for (const auto& name : names) {
      const target::Benchmark* found = nullptr;
      for (const auto& b : listed) {
        if (b.name == name) found = &b;
      }
      if (found == nullptr) {
        std::string have;
        for (size_t i = 0; i < listed.size() && i < 10; ++i) have += (i ? ", " : "") + listed[i].name;
        const std::string msg = fmt::format("benchmark '{}' is not in {} at {}; it has: {}", name,
                                            spec_.recipe.executable, Short(commit), have.empty() ? "none" : have);
        if (end) {
          return Status::NotFound(msg +
                                  "\nname them as the executable lists them (--list for a tare binary, "
                                  "--benchmark_list_tests for Google Benchmark)");
        }
        m = Measured{};
        m.failure = msg;
        break;
      }
      if (!sim) {  // wall: the benchmark is there (named, no count); each step's campaign measures it
        m.counts[name] = 0;
        continue;
      }
      const std::string count_path =
          built.record_dir + "/sim/" +
          CountKey({built.executable_sha256, valgrind_sha256_, spec_.recipe.workdir, spec_.recipe.args, name}) +
          ".json";
      if (auto cached = ReadCachedCount(count_path)) {
        m.counts[name] = cached->count;
        m.profiles[name] = std::move(cached->profiles);
        continue;
      }
      ran_valgrind = true;
      target::Benchmark bench = *found;
      TARE_RETURN_IF_ERROR(session::FixIterations(spawner_, target, options, 0, &bench));
      std::vector<std::string> unavailable;
      target::MeasureExtras extras;
      TARE_ASSIGN_OR_RETURN(Sample s, target::MeasureOnce(spawner_, target, bench, options, &unavailable, &extras));
      if (proc::Interrupted()) return Status::Cancelled("interrupted; the builds done so far are cached");
      auto v = s.values.find(metric_name::kSimIr);
      if (!s.ok() || v == s.values.end()) {
        const std::string msg = fmt::format("{} failed under valgrind at {}: {}", name, Short(commit),
                                            s.error.empty() ? "no instruction count" : s.error);
        if (end) return Status::FailedPrecondition(msg);
        m = Measured{};
        m.failure = msg;
        break;
      }
      m.counts[name] = v->second;
      m.profiles[name] = std::move(extras.artifacts);
      TARE_RETURN_IF_ERROR(WriteCachedCount(count_path, CachedCount{v->second, m.profiles[name]}));
    }
    if (sim) (ran_valgrind ? report_.measured : report_.measured_from_cache)++;
    memo_[commit] = m;
    return m;
  }

  StatusOr<BisectReport> Run() {
    TARE_ASSIGN_OR_RETURN(good_, git_.ResolveCommit(spec_.good));
    TARE_ASSIGN_OR_RETURN(bad_, git_.ResolveCommit(spec_.bad));
    if (good_ == bad_) return Status::InvalidArgument("--good and --bad name the same commit; give a range");
    TARE_ASSIGN_OR_RETURN(bool ancestor, git_.IsAncestor(good_, bad_));
    if (!ancestor) {
      return Status::InvalidArgument(fmt::format(
          "the good commit {} is not an ancestor of the bad commit {}: bisect looks for a change along history, "
          "so --good must be older (did you swap --good and --bad?)",
          Short(good_), Short(bad_)));
    }
    TARE_ASSIGN_OR_RETURN(std::vector<std::string> path, git_.AncestryPath(good_, bad_));
    if (path.empty() || path.back() != bad_) {
      return Status::FailedPrecondition("git rev-list found no first-parent path from --good to --bad");
    }
    std::vector<std::string> commits = {good_};
    commits.insert(commits.end(), path.begin(), path.end());
    const size_t n = commits.size() - 1;
    TARE_ASSIGN_OR_RETURN(report_.good, git_.Describe(good_));
    TARE_ASSIGN_OR_RETURN(report_.bad, git_.Describe(bad_));
    report_.commits = n;
    report_.recipe_hash = cache_.recipe_hash();
    report_.cache_dir = spec_.cache_dir;
    report_.allowance = allowance_;
    report_.instrument = spec_.instrument;
    if (stepper_ != nullptr) {
      report_.step_budget_ns = spec_.step_budget_ns;
      report_.store_path = StorePath(spec_.cache_dir);
    }

    Say(fmt::format("bisect: {} commits from {} to {}; building and measuring both ends", n, Short(good_),
                    Short(bad_)));
    TARE_ASSIGN_OR_RETURN(Measured good, Measure(good_, spec_.benchmarks, true));
    std::vector<std::string> names;
    for (const auto& [name, count] : good.counts) names.push_back(name);
    if (!spec_.benchmarks.empty()) names = spec_.benchmarks;
    TARE_ASSIGN_OR_RETURN(Measured bad, Measure(bad_, names, true));

    if (stepper_ != nullptr) {
      for (const auto& name : names) {
        TARE_ASSIGN_OR_RETURN(BenchmarkAnswer a, BisectOnTime(name, names, commits));
        report_.answers.push_back(std::move(a));
      }
      report_.campaigns = stepper_->campaigns_run();
      report_.campaigns_from_cache = stepper_->campaigns_from_cache();
      return report_;
    }
    for (const auto& name : names) {
      BenchmarkAnswer a;
      a.benchmark = name;
      a.good_count = good.counts[name];
      a.bad_count = bad.counts[name];
      a.changed = Changed(a.good_count, a.bad_count);
      if (!a.changed) {
        Say(fmt::format("bisect: {}: the same at both ends ({:.0f} instructions)", name, a.good_count));
        report_.answers.push_back(a);
        continue;
      }
      std::map<size_t, double> seen = {{0, a.good_count}, {n, a.bad_count}};
      std::map<size_t, const Measured*> measured = {{0, &memo_.at(good_)}, {n, &memo_.at(bad_)}};
      auto outcome = FindFirstChange(n, [&](size_t i, size_t left) -> StatusOr<Step> {
        ++a.steps;
        Say(fmt::format("bisect: {}: step {}, at most {} left: {} ({} of {}); {} built, {} from the cache", name,
                        a.steps, left - 1, Short(commits[i]), i, n, report_.builds, report_.cache_hits));
        TARE_ASSIGN_OR_RETURN(Measured m, Measure(commits[i], names, false));
        if (!m.ok || !m.counts.count(name)) {
          Skip(commits[i], m);
          return Step::kSkip;
        }
        seen[i] = m.counts[name];
        measured[i] = &memo_.at(commits[i]);
        return Changed(a.good_count, m.counts[name]) ? Step::kChanged : Step::kSame;
      });
      if (!outcome.ok()) return outcome.status();
      a.exact = outcome->exact;
      TARE_ASSIGN_OR_RETURN(a.culprit, git_.Describe(commits[outcome->first_changed]));
      a.culprit_count = seen[outcome->first_changed];
      TARE_ASSIGN_OR_RETURN(a.last_same, git_.Describe(commits[outcome->last_same]));
      a.last_same_count = seen[outcome->last_same];
      if (a.exact) {
        const Measured& culprit = *measured.at(outcome->first_changed);
        const Measured& parent = *measured.at(outcome->last_same);
        a.kind = culprit.kind;
        a.culprit_executable = culprit.executable;
        a.last_same_executable = parent.executable;
        if (auto it = culprit.profiles.find(name); it != culprit.profiles.end()) a.culprit_profiles = it->second;
        if (auto it = parent.profiles.find(name); it != parent.profiles.end()) a.last_same_profiles = it->second;
      } else {
        for (size_t i = outcome->last_same + 1; i <= outcome->first_changed; ++i) {
          TARE_ASSIGN_OR_RETURN(CommitInfo c, git_.Describe(commits[i]));
          a.range.push_back(c);
        }
      }
      report_.answers.push_back(a);
    }
    return report_;
  }

 private:
  // One benchmark bisected on time: the ends' campaign first, then one campaign per step.
  StatusOr<BenchmarkAnswer> BisectOnTime(const std::string& name, const std::vector<std::string>& names,
                                         const std::vector<std::string>& commits) {
    const size_t n = commits.size() - 1;
    BenchmarkAnswer a;
    a.benchmark = name;
    const Measured& good = memo_.at(good_);
    const std::string cell = good.kind == TargetKind::kCommand ? "" : name;
    auto compare = [&](const Measured& candidate) {
      return stepper_->Compare(good.built, candidate.built, cell, cache_.Args(candidate.built),
                               cache_.Workdir(candidate.built));
    };
    Say(fmt::format("bisect: {}: the bad end {} against the good end {} (a campaign, budget {}s)", name, Short(bad_),
                    Short(good_), spec_.step_budget_ns / 1'000'000'000));
    TARE_ASSIGN_OR_RETURN(a.ends_change, compare(memo_.at(bad_)));
    SayStep(name, bad_, a.ends_change);
    if (a.ends_change.outcome == TimeOutcome::kBroken) {
      return Status::FailedPrecondition(
          fmt::format("{} cannot be measured at the ends: {}", name, a.ends_change.reason));
    }
    a.changed = a.ends_change.outcome == TimeOutcome::kChanged;
    if (a.ends_change.outcome == TimeOutcome::kInconclusive) {
      // The ends cannot be told apart nor certified the same: the whole range is undecided.
      a.inconclusive = true;
      a.inconclusive_change = a.ends_change;
      TARE_ASSIGN_OR_RETURN(a.inconclusive_at, git_.Describe(bad_));
      TARE_ASSIGN_OR_RETURN(a.last_same, git_.Describe(good_));
      TARE_ASSIGN_OR_RETURN(a.culprit, git_.Describe(bad_));
      return a;
    }
    if (!a.changed) return a;
    std::map<size_t, TimeChange> seen = {{n, a.ends_change}};
    auto outcome = FindFirstChange(n, [&](size_t i, size_t left) -> StatusOr<Step> {
      ++a.steps;
      Say(fmt::format("bisect: {}: step {}, at most {} left: {} ({} of {}); {} built, {} from the cache", name, a.steps,
                      left - 1, Short(commits[i]), i, n, report_.builds, report_.cache_hits));
      TARE_ASSIGN_OR_RETURN(Measured m, Measure(commits[i], names, false));
      if (!m.ok) {
        Skip(commits[i], m);
        return Step::kSkip;
      }
      TARE_ASSIGN_OR_RETURN(TimeChange c, compare(m));
      SayStep(name, commits[i], c);
      seen[i] = c;
      switch (c.outcome) {
        case TimeOutcome::kSame:
          return Step::kSame;
        case TimeOutcome::kChanged:
          return Step::kChanged;
        case TimeOutcome::kInconclusive:
          return Step::kInconclusive;
        case TimeOutcome::kBroken:
          m.ok = false;
          m.failure = fmt::format("{} failed: {}", name, c.reason);
          Skip(commits[i], m);
          return Step::kSkip;
      }
      return Step::kSkip;
    });
    if (!outcome.ok()) return outcome.status();
    a.exact = outcome->exact;
    a.inconclusive = outcome->inconclusive;
    TARE_ASSIGN_OR_RETURN(a.culprit, git_.Describe(commits[outcome->first_changed]));
    a.culprit_change = seen[outcome->first_changed];
    TARE_ASSIGN_OR_RETURN(a.last_same, git_.Describe(commits[outcome->last_same]));
    if (outcome->last_same > 0) a.last_same_change = seen[outcome->last_same];
    if (a.inconclusive) {
      TARE_ASSIGN_OR_RETURN(a.inconclusive_at, git_.Describe(commits[outcome->inconclusive_at]));
      a.inconclusive_change = seen[outcome->inconclusive_at];
    }
    if (!a.exact) {
      for (size_t i = outcome->last_same + 1; i <= outcome->first_changed; ++i) {
        TARE_ASSIGN_OR_RETURN(CommitInfo c, git_.Describe(commits[i]));
        a.range.push_back(c);
      }
    }
    return a;
  }
  // "bisect: hot: 3f2a9c1d0e4b changed against the good end: bench.cpu_ns +41.2% [+39.0%, +43.1%] (FAIL, 20 pairs)".
  void SayStep(const std::string& name, const std::string& commit, const TimeChange& c) const {
    Say(fmt::format("bisect: {}: {} {} against the good end: {} {:+.1f}% [{:+.1f}%, {:+.1f}%] ({}, {} pairs{}){}", name,
                    Short(commit), TimeOutcomeName(c.outcome), c.metric, 100 * c.estimate, 100 * c.lo, 100 * c.hi,
                    c.verdict, c.pairs, c.from_cache ? ", from the cache" : "",
                    c.reason.empty() ? "" : ": " + c.reason));
  }
  // A plain command's name: the recipe's executable and arguments as typed ("{build}/bm --fast").
  std::string CommandName() const {
    std::string name = spec_.recipe.executable;
    for (const auto& a : spec_.recipe.args) name += " " + a;
    return name;
  }
  bool Changed(double good, double now) const {
    if (good == 0) return now != 0;
    return std::fabs(now / good - 1) > allowance_;
  }
  void Say(const std::string& line) const {
    if (spec_.progress) spec_.progress(line);
  }
  void Skip(const std::string& commit, const Measured& m) {
    for (const auto& s : report_.skipped) {
      if (s.commit.id == commit) return;
    }
    SkippedCommit s;
    auto info = git_.Describe(commit);
    if (info.ok()) {
      s.commit = *info;
    } else {
      s.commit.id = commit;
    }
    s.reason = m.failure;
    s.log_tail = m.log_tail;
    Say(fmt::format("bisect: skipping {}: {}", Short(commit), m.failure));
    report_.skipped.push_back(std::move(s));
  }

  proc::Spawner& spawner_;
  const BisectSpec& spec_;
  double allowance_;
  Git& git_;
  BuildCache& cache_;
  TimeStepper* stepper_;  // wall only
  std::string scratch_;
  std::string good_, bad_;
  std::string valgrind_sha256_;
  std::map<std::string, Measured> memo_;
  BisectReport report_;
};

}  // namespace

std::string StorePath(const std::string& cache_dir) { return cache_dir + "/tare.db"; }

bool AnyInconclusive(const BisectReport& report) {
  for (const auto& a : report.answers) {
    if (a.inconclusive) return true;
  }
  return false;
}

StatusOr<BisectReport> RunBisect(proc::Spawner& spawner, const BisectSpec& spec) {
  TARE_RETURN_IF_ERROR(CheckRecipe(spec.recipe));
  if (spec.instrument != Instrument::kSim && spec.instrument != Instrument::kWall) {
    return Status::InvalidArgument(fmt::format(
        "--instrument {}: tare bisect decides a step on an exact count (sim) or on a paired time campaign (wall)",
        InstrumentName(spec.instrument)));
  }
  const bool wall = spec.instrument == Instrument::kWall;
  const double allowance = spec.allowance.value_or(wall ? kDefaultTimeAllowance : kDefaultAllowance);
  if (!(allowance >= 0 && allowance < 1)) {
    return Status::InvalidArgument("--allowance must be a percentage in [0, 100), e.g. 1 for 1%");
  }
  if (wall && spec.step_budget_ns <= 0) {
    return Status::InvalidArgument("--step-budget must be a positive time, e.g. 60s or 2m");
  }
  TARE_ASSIGN_OR_RETURN(std::unique_ptr<Checkout> checkout, Checkout::Open(spawner, spec.repo, "tare-bisect"));
  Git& git = checkout->git();
  const std::string& scratch = checkout->scratch();
  BuildCache cache(spawner, git, spec.recipe, spec.cache_dir);
  std::unique_ptr<TimeStepper> stepper;
  if (wall) {
    TimeStepSpec t;
    t.store_path = StorePath(spec.cache_dir);
    t.stage_dir = spec.cache_dir + "/bin";
    t.allowance = allowance;
    t.budget_ns = spec.step_budget_ns;
    t.command_line = spec.command_line;
    t.notice = spec.progress;
    stepper = std::make_unique<TimeStepper>(spawner, std::move(t));
  }
  Bisector b(spawner, spec, allowance, git, cache, stepper.get(), scratch);
  TARE_ASSIGN_OR_RETURN(BisectReport report, b.Run());
  if (!wall && spec.attribute_top > 0) AttributeCulprits(&report, spec.attribute_top);
  return report;
}

}  // namespace tare::bisect
