#include "oracle/stability.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "oracle/check.h"
#include "oracle/flip.h"

namespace tare::oracle {
namespace {

int ClassRank(ItemClass c) {
  switch (c) {
    case ItemClass::kContradicts:
      return 0;
    case ItemClass::kMarginal:
      return 1;
    case ItemClass::kUncertain:
      return 2;
    case ItemClass::kStable:
      return 3;
  }
  return 3;
}

bool SuggestQuarantine(const ItemStability& s) {
  if (s.quarantined != nullptr) return false;
  if (s.item_class == ItemClass::kMarginal) return true;
  // A contradicting item that is unanimous is a real change, not luck.
  return s.item_class == ItemClass::kContradicts && s.count > 0 && s.count < s.trials;
}

std::string RetriesPhrase(int retries) {
  return retries == 0 ? "no retry" : retries == 1 ? "1 retry" : fmt::format("{} retries", retries);
}

}  // namespace

const char* ItemClassName(ItemClass c) {
  switch (c) {
    case ItemClass::kStable:
      return "stable";
    case ItemClass::kUncertain:
      return "uncertain";
    case ItemClass::kMarginal:
      return "MARGINAL";
    case ItemClass::kContradicts:
      return "CONTRADICTS";
  }
  return "?";
}

std::string FormatProbability(double p) {
  if (std::isnan(p)) return "n/a";
  if (p <= 0) return "0";
  if (p >= 1) return "100%";
  if (p >= 1e-4) return fmt::format("{:.2g}%", p * 100);
  return fmt::format("{:.1e}", p);
}

int StabilityResult::flagged() const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [](const ItemStability& s) {
    return s.quarantined == nullptr &&
           (s.item_class == ItemClass::kMarginal || s.item_class == ItemClass::kContradicts);
  }));
}

int StabilityResult::uncertain() const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [](const ItemStability& s) {
    return s.quarantined == nullptr && s.item_class == ItemClass::kUncertain;
  }));
}

StabilityResult AnalyzeStability(const Tally& tally, const Golden* golden, const StabilityOptions& options) {
  StabilityResult r;
  r.options = options;
  r.tally = tally;
  r.had_golden = golden != nullptr;
  r.header_differs_from_golden = golden != nullptr && golden->header != tally.header();

  std::set<std::string> universe;
  for (const auto& [item, count] : tally.counts) universe.insert(item);
  if (golden) universe.insert(golden->items.begin(), golden->items.end());

  const int m = tally.trials;
  const int n = options.vote_trials;
  double sum_q = 0, max_q = 0, log_all_right = 0;
  for (const std::string& item : universe) {
    ItemStability s;
    s.item = item;
    s.count = tally.Count(item);
    s.trials = m;
    s.p = m > 0 ? static_cast<double>(s.count) / m : 0;
    s.interval = stats::ClopperPearson(s.count, m, options.confidence);
    s.pinned_present = golden ? golden->items.count(item) > 0 : 2 * s.count > m;
    s.q = VoteWrongProbability(s.p, n, s.pinned_present);
    // q falls as p rises for a present item and rises with p for an absent one, so the worst end
    // of the interval is its low end for a present item and its high end for an absent one.
    s.q_worst = VoteWrongProbability(s.pinned_present ? s.interval.lo : s.interval.hi, n, s.pinned_present);
    s.red = WrongOnEveryAttempt(s.q, options.retries);
    s.red_worst = WrongOnEveryAttempt(s.q_worst, options.retries);
    if (golden && s.q > 0.5) {
      s.item_class = ItemClass::kContradicts;
    } else if (s.red > options.max_red) {
      s.item_class = ItemClass::kMarginal;
    } else if (s.red_worst > options.max_red) {
      s.item_class = ItemClass::kUncertain;
    } else {
      s.item_class = ItemClass::kStable;
    }
    s.quarantined = options.quarantine ? options.quarantine->Match(item) : nullptr;
    if (s.quarantined == nullptr) {
      sum_q += s.q;
      max_q = std::max(max_q, s.q);
      log_all_right += std::log1p(-std::min(s.q, 1.0));
    }
    r.items.push_back(std::move(s));
  }
  std::stable_sort(r.items.begin(), r.items.end(), [](const ItemStability& a, const ItemStability& b) {
    if (ClassRank(a.item_class) != ClassRank(b.item_class)) {
      return ClassRank(a.item_class) < ClassRank(b.item_class);
    }
    if (a.item_class == ItemClass::kStable) return false;  // keep the bytewise order
    return a.item_class == ItemClass::kUncertain ? a.red_worst > b.red_worst : a.red > b.red;
  });
  if (r.header_differs_from_golden) {
    r.attempt_mismatch_lo = r.attempt_mismatch_hi = r.attempt_mismatch_independent = 1;
  } else {
    r.attempt_mismatch_lo = max_q;
    r.attempt_mismatch_hi = std::min(1.0, sum_q);
    r.attempt_mismatch_independent = -std::expm1(log_all_right);
  }
  return r;
}

Status ValidateStabilityOptions(const StabilityOptions& options) {
  if (options.trials < 1) {
    return Status::InvalidArgument(fmt::format(
        "--trials {} must be at least 1 (100 or more gives intervals narrow enough to act on)", options.trials));
  }
  // Each trial's output is kept in memory until they are tallied: an unbounded count ended in
  // std::bad_alloc (issue 9), after starting processes.
  if (options.trials > kMaxTrials) {
    return Status::InvalidArgument(fmt::format("--trials {} is more than {}; 1000 gives intervals a few percent wide",
                                               options.trials, kMaxTrials));
  }
  TARE_RETURN_IF_ERROR(ValidateVoteTrials(options.vote_trials, "--vote-trials"));
  if (options.retries < 0) {
    return Status::InvalidArgument(fmt::format("--retries {} must be 0 or more", options.retries));
  }
  if (!(options.confidence > 0 && options.confidence < 1)) {
    return Status::InvalidArgument(
        fmt::format("--confidence {} must be between 0 and 1 (e.g. 0.95)", options.confidence));
  }
  if (!(options.max_red > 0 && options.max_red < 1)) {
    return Status::InvalidArgument(
        fmt::format("--max-red {} must be between 0 and 1 (e.g. 0.001: one red check in a thousand)", options.max_red));
  }
  return Status::Ok();
}

StatusOr<StabilityResult> RunStability(TrialSession& session, const StabilityOptions& options) {
  TARE_RETURN_IF_ERROR(ValidateStabilityOptions(options));
  std::optional<Golden> golden;
  if (!options.golden_path.empty()) {
    TARE_ASSIGN_OR_RETURN(golden, ReadGolden(options.golden_path));
  }
  session.Progress(fmt::format("tare oracle: stability: {} trials of `{}` (raw output in {}/trials)", options.trials,
                               session.DescribeCommand(), session.run_dir()));
  TARE_ASSIGN_OR_RETURN(std::vector<TrialOutput> outputs, session.RunBatch("trials", options.trials));
  StabilityResult r = AnalyzeStability(TallyTrials(outputs), golden ? &*golden : nullptr, options);
  r.command = session.DescribeCommand();
  r.run_dir = session.run_dir();
  r.processes = session.processes();
  return r;
}

std::string FormatStabilityResult(const StabilityResult& r) {
  const StabilityOptions& o = r.options;
  std::string out = fmt::format("tare oracle stability: {}\n", r.command);
  out += fmt::format("  measured    {} fresh processes; p with {:g}% Clopper–Pearson intervals\n", r.tally.trials,
                     o.confidence * 100);
  out += fmt::format("  judged for  a {}-trial vote with {}; flagged when P(red) > {} per check\n", o.vote_trials,
                     RetriesPhrase(o.retries), FormatProbability(o.max_red));
  out += fmt::format("  pinned side {}\n", r.had_golden
                                               ? fmt::format("as in the golden {}", o.golden_path)
                                               : std::string("the majority side of these processes (no --golden)"));
  if (o.quarantine) out += fmt::format("  quarantine  {}\n", o.quarantine->path());
  out += fmt::format("  raw output  {}/\n", r.run_dir);
  if (!r.header_agrees()) {
    out += "header lines differ between trials:\n";
    out += FormatHeaderVariants(r.tally, "  ");
    out += fmt::format(
        "result: NONDETERMINISTIC HEADER ({} processes): the workload differs between processes, "
        "so per-item probabilities mean nothing. Print varying text as notes (## lines).\n",
        r.processes);
    return out;
  }
  if (r.header_differs_from_golden) {
    out +=
        "warning: the header differs from the golden's; every check against it fails until it "
        "is re-accepted.\n";
  }

  out += fmt::format("{:<11} {:>11} {:>6}  {:<16} {:<8} {:<20} {:<20} {}\n", "class", "seen", "p",
                     fmt::format("{:g}% CI", o.confidence * 100), "pinned", "P(vote wrong)",
                     fmt::format("P(red), {}", RetriesPhrase(o.retries)), "item");
  for (const ItemStability& s : r.items) {
    std::string cls = s.quarantined ? std::string("quarantined") : ItemClassName(s.item_class);
    out += fmt::format(
        "{:<11} {:>11} {:>6.3f}  {:<16} {:<8} {:<20} {:<20} {}\n", cls, fmt::format("{}/{}", s.count, s.trials), s.p,
        fmt::format("[{:.3f}, {:.3f}]", s.interval.lo, s.interval.hi), s.pinned_present ? "present" : "absent",
        fmt::format("{} (≤{})", FormatProbability(s.q), FormatProbability(s.q_worst)),
        fmt::format("{} (≤{})", FormatProbability(s.red), FormatProbability(s.red_worst)), s.item);
  }
  out += "  (≤x: the same figure at the worst end of the interval, since p can drift between batches)\n";

  const int retries = o.retries;
  // "27%" when the bounds agree (one item can flip), "27%–35%" otherwise.
  auto range = [](double lo, double hi) {
    return FormatProbability(lo) == FormatProbability(hi)
               ? FormatProbability(lo)
               : fmt::format("{}–{}", FormatProbability(lo), FormatProbability(hi));
  };
  out += fmt::format(
      "whole check ({} items not quarantined): one vote mismatches with probability {} (≈{} if "
      "items are independent); P(red) with {} = {} (≈{})\n",
      std::count_if(r.items.begin(), r.items.end(), [](const ItemStability& s) { return !s.quarantined; }),
      range(r.attempt_mismatch_lo, r.attempt_mismatch_hi), FormatProbability(r.attempt_mismatch_independent),
      RetriesPhrase(retries),
      range(WrongOnEveryAttempt(r.attempt_mismatch_lo, retries), WrongOnEveryAttempt(r.attempt_mismatch_hi, retries)),
      FormatProbability(WrongOnEveryAttempt(r.attempt_mismatch_independent, retries)));

  const std::string suggestion = SuggestedQuarantine(r);
  if (!suggestion.empty()) {
    out += fmt::format(
        "suggested quarantine entries (also in {}/suggested-quarantine.txt). Add the cause to each "
        "reason before committing, and consider dropping the whole class instead when several share "
        "one cause (docs/oracle.md):\n",
        r.run_dir);
    out += suggestion;
  }
  for (const ItemStability& s : r.items) {
    if (s.quarantined == nullptr && s.item_class == ItemClass::kContradicts && !SuggestQuarantine(s)) {
      out += fmt::format(
          "note: '{}' is pinned {} in the golden but {} of {} processes showed it: a real change "
          "(or an outdated golden; re-accept it if intended).\n",
          s.item, s.pinned_present ? "present" : "absent", s.count, s.trials);
    }
  }
  const int flagged = r.flagged();
  const int uncertain = r.uncertain();
  if (uncertain > 0) {
    out += fmt::format(
        "warning: {} {} uncertain: stable at the measured p but not across its interval; rerun "
        "with more --trials (e.g. {}) to tell.\n",
        uncertain, uncertain == 1 ? "item is" : "items are", std::max(100, 4 * r.tally.trials));
  }
  if (flagged > 0) {
    out += fmt::format("result: {} {} cannot be pinned by a {}-trial vote with {} ({} processes)\n", flagged,
                       flagged == 1 ? "item" : "items", o.vote_trials, RetriesPhrase(o.retries), r.processes);
  } else {
    out += fmt::format("result: STABLE: no item above P(red) {} ({} processes)\n", FormatProbability(o.max_red),
                       r.processes);
  }
  return out;
}

std::string SuggestedQuarantine(const StabilityResult& r) {
  std::string entries;
  for (const ItemStability& s : r.items) {
    if (!SuggestQuarantine(s)) continue;
    entries += FormatQuarantineEntry(
        s.item, fmt::format("p ≈ {:.2f} ({:g}% CI {:.2f}–{:.2f}, in {} of {} fresh processes): a "
                            "{}-trial vote with {} goes red in {} of checks (tare oracle stability)",
                            s.p, r.options.confidence * 100, s.interval.lo, s.interval.hi, s.count, s.trials,
                            r.options.vote_trials, RetriesPhrase(r.options.retries), FormatProbability(s.red)));
    entries += "\n";
  }
  if (entries.empty()) return "";
  return std::string(kQuarantineVersionLine) + "\n" + entries;
}

}  // namespace tare::oracle
