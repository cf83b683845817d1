#include "oracle/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/files.h"

namespace tare::oracle {
namespace {

std::string FormatVotes(const Tally& tally, int attempt) {
  std::string out =
      fmt::format("## attempt {}: {} trials; an item is voted present when more than half of them show it\n", attempt,
                  tally.trials);
  for (const HeaderVariant& v : tally.headers) {
    out += fmt::format("## header printed by trials {}:\n", FormatTrialList(v.trials));
    for (const std::string& line : v.header) out += line + "\n";
  }
  for (const auto& [item, count] : tally.counts) {
    out += fmt::format("{}/{} {}\n", count, tally.trials, item);
  }
  return out;
}

Status KeepAttemptFiles(const TrialSession& session, const CheckAttempt& attempt) {
  const std::string dir = session.run_dir() + "/" + attempt.subdir;
  TARE_RETURN_IF_ERROR(WriteFileAtomic(dir + "/votes.txt", FormatVotes(attempt.tally, attempt.number)));
  if (attempt.tally.header_agrees()) {
    Golden voted{attempt.tally.header(), attempt.tally.VotedItems()};
    TARE_RETURN_IF_ERROR(WriteGolden(dir + "/voted.golden", voted));
  }
  return Status::Ok();
}

std::string Plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

}  // namespace

std::string FormatTrialList(const std::vector<int>& trials) {
  std::string out;
  for (size_t i = 0; i < trials.size();) {
    size_t j = i;
    while (j + 1 < trials.size() && trials[j + 1] == trials[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? fmt::format("{}", trials[i]) : fmt::format("{}-{}", trials[i], trials[j]);
    i = j + 1;
  }
  return out;
}

std::string FormatHeaderVariants(const Tally& tally, const std::string& indent) {
  // Lines every variant shares are noise here; show what differs.
  std::string out;
  const size_t kMaxVariants = 6;
  for (size_t v = 0; v < tally.headers.size() && v < kMaxVariants; ++v) {
    const HeaderVariant& variant = tally.headers[v];
    out += fmt::format("{}trials {}:\n", indent, FormatTrialList(variant.trials));
    int shown = 0;
    for (const std::string& line : variant.header) {
      bool common = std::all_of(tally.headers.begin(), tally.headers.end(), [&](const HeaderVariant& o) {
        return std::find(o.header.begin(), o.header.end(), line) != o.header.end();
      });
      if (!common) {
        out += fmt::format("{}  {}\n", indent, line);
        ++shown;
      }
    }
    if (shown == 0) out += fmt::format("{}  (same lines as another variant, in another order or count)\n", indent);
  }
  if (tally.headers.size() > kMaxVariants) {
    out += fmt::format("{}... {} more variants (see votes.txt)\n", indent, tally.headers.size() - kMaxVariants);
  }
  return out;
}

Status ValidateVoteTrials(int trials, const char* flag) {
  if (trials < 1 || trials % 2 == 0) {
    return Status::InvalidArgument(
        fmt::format("{} {} must be a positive odd number, so that a majority vote never ties (e.g. 9)", flag, trials));
  }
  if (trials > kMaxTrials) {
    return Status::InvalidArgument(fmt::format(
        "{} {} is more than {} trials; a vote needs a few dozen at most (e.g. 9)", flag, trials, kMaxTrials));
  }
  return Status::Ok();
}

StatusOr<CheckResult> RunCheck(TrialSession& session, const CheckOptions& options) {
  TARE_RETURN_IF_ERROR(ValidateVoteTrials(options.trials, "--trials"));
  if (options.retries < 0) {
    return Status::InvalidArgument(
        fmt::format("--retries {} must be 0 or more (1 absorbs most flips; see docs/oracle.md)", options.retries));
  }
  if (options.golden_path.empty()) {
    return Status::InvalidArgument("--golden FILE is required (use --accept to create it)");
  }
  CheckResult result;
  result.options = options;
  result.command = session.DescribeCommand();
  result.run_dir = session.run_dir();

  // Read the golden before running anything: a missing golden is a usage error, not a spent run.
  std::optional<Golden> golden;
  auto read = ReadGolden(options.golden_path);
  if (read.ok()) {
    golden = std::move(read).value();
  } else if (!options.accept || read.status().code() != StatusCode::kNotFound) {
    // --accept may create a golden, but never silently overwrite something that is not one.
    return read.status();
  }
  result.had_golden = golden.has_value();

  const int attempts = options.accept ? 1 : 1 + options.retries;
  std::set<std::string> seen_items;
  for (int a = 1; a <= attempts; ++a) {
    CheckAttempt attempt;
    attempt.number = a;
    attempt.subdir = fmt::format("attempt-{}", a);
    session.Progress(fmt::format("tare oracle: attempt {}/{}: {} trials of `{}` (raw output in {}/{})", a, attempts,
                                 options.trials, result.command, session.run_dir(), attempt.subdir));
    TARE_ASSIGN_OR_RETURN(std::vector<TrialOutput> outputs, session.RunBatch(attempt.subdir, options.trials));
    attempt.tally = TallyTrials(outputs);
    result.processes = session.processes();
    TARE_RETURN_IF_ERROR(KeepAttemptFiles(session, attempt));
    for (const auto& [item, count] : attempt.tally.counts) seen_items.insert(item);

    if (!attempt.tally.header_agrees()) {
      result.attempts.push_back(std::move(attempt));
      result.verdict = CheckVerdict::kNondeterministicHeader;
      break;
    }
    if (golden) attempt.comparison = Compare(*golden, attempt.tally, options.quarantine);
    const bool header_differs = attempt.comparison && attempt.comparison->header_differs;
    const bool matched = attempt.comparison && attempt.comparison->match();
    result.attempts.push_back(std::move(attempt));

    if (options.accept) {
      const Tally& tally = result.attempts.back().tally;
      TARE_RETURN_IF_ERROR(WriteGolden(options.golden_path, Golden{tally.header(), tally.VotedItems()})
                               .WithContext("writing the accepted golden"));
      result.verdict = CheckVerdict::kAccepted;
      break;
    }
    if (matched) {
      result.verdict = CheckVerdict::kMatch;
      break;
    }
    result.verdict = CheckVerdict::kMismatch;
    if (header_differs) break;  // deterministic: the next attempt prints the same header
  }

  if (options.quarantine != nullptr) {
    for (const QuarantineEntry& e : options.quarantine->entries()) {
      bool used =
          std::any_of(seen_items.begin(), seen_items.end(), [&](const std::string& item) { return e.Matches(item); });
      if (!used && golden) {
        used = std::any_of(golden->items.begin(), golden->items.end(),
                           [&](const std::string& item) { return e.Matches(item); });
      }
      if (!used) result.unused_quarantine.push_back(&e);
    }
  }
  return result;
}

std::string FormatCheckResult(const CheckResult& r) {
  const CheckOptions& o = r.options;
  std::string out = fmt::format("tare oracle check: {}\n", r.command);
  out += fmt::format("  golden      {}\n", o.golden_path);
  if (o.accept) {
    out += fmt::format("  vote        {} per attempt (--accept: one attempt)\n", Plural(o.trials, "trial", "trials"));
  } else {
    out += fmt::format("  vote        {} per attempt, up to {} after a mismatch\n", Plural(o.trials, "trial", "trials"),
                       Plural(o.retries, "retry", "retries"));
  }
  if (o.quarantine != nullptr) {
    out += fmt::format("  quarantine  {} ({})\n", o.quarantine->path(),
                       Plural(static_cast<int>(o.quarantine->entries().size()), "entry", "entries"));
  }
  out += fmt::format("  raw output  {}/\n", r.run_dir);

  for (const CheckAttempt& a : r.attempts) {
    if (!a.tally.header_agrees()) {
      out += fmt::format("attempt {}: header lines differ between trials ({} processes)\n", a.number, a.tally.trials);
      out += FormatHeaderVariants(a.tally, "  ");
      continue;
    }
    if (!a.comparison) {
      out += fmt::format("attempt {}: voted {} and {} ({} processes)\n", a.number,
                         Plural(static_cast<int>(a.tally.header().size()), "header line", "header lines"),
                         Plural(static_cast<int>(a.tally.VotedItems().size()), "item", "items"), a.tally.trials);
      continue;
    }
    const Comparison& c = *a.comparison;
    const char* state = o.accept ? (c.match() ? "same as the previous golden" : "differs from the previous golden")
                                 : (c.match() ? "match" : "MISMATCH");
    out += fmt::format("attempt {}: {} ({} processes)\n", a.number, state, a.tally.trials);
    out += FormatDifferences(c, "  ");
  }

  // Quarantined items of the last attempt: the exemption is listed every time, never silent.
  if (!r.attempts.empty() && r.attempts.back().comparison && !r.attempts.back().comparison->quarantined.empty()) {
    const CheckAttempt& last = r.attempts.back();
    out += fmt::format("quarantined, left out of the comparison (as voted in attempt {}):\n", last.number);
    for (const QuarantinedItem& q : last.comparison->quarantined) {
      out += fmt::format("  {}  golden: {}  vote: {}\n", q.item, q.in_golden ? "present" : "absent",
                         DescribeVote(q.count, q.trials));
      out += fmt::format("      reason: {}  [{}:{} {}]\n", q.entry->reason, o.quarantine->path(), q.entry->line,
                         q.entry->Describe());
    }
  }
  for (const QuarantineEntry* e : r.unused_quarantine) {
    out += fmt::format(
        "note: quarantine {} ({}:{}) covered nothing in the golden or any trial; remove it if the "
        "item is gone for good\n",
        e->Describe(), o.quarantine->path(), e->line);
  }

  // Split votes: items the processes disagreed on. Unanimity is what a pinnable item looks like.
  if (!r.attempts.empty() && r.attempts.back().tally.header_agrees()) {
    const Tally& t = r.attempts.back().tally;
    std::vector<std::string> split;
    for (const std::string& item : t.SplitItems()) {
      if (o.quarantine == nullptr || o.quarantine->Match(item) == nullptr) split.push_back(item);
    }
    if (!split.empty()) {
      out += fmt::format(
          "split votes in attempt {} (not unanimous: these items appear in some "
          "processes and not others):\n",
          r.attempts.back().number);
      const size_t kMaxShown = 20;
      for (size_t i = 0; i < split.size() && i < kMaxShown; ++i) {
        out += fmt::format("  {}  {}\n", split[i], DescribeVote(t.Count(split[i]), t.trials));
      }
      if (split.size() > kMaxShown) out += fmt::format("  ... {} more in votes.txt\n", split.size() - kMaxShown);
    }
  }

  const int used = static_cast<int>(r.attempts.size());
  switch (r.verdict) {
    case CheckVerdict::kMatch:
      if (used == 1) {
        out += fmt::format("result: MATCH ({} processes)\n", r.processes);
      } else {
        out += fmt::format(
            "result: MATCH on attempt {} of {} ({} processes). The earlier {} a flip that a "
            "fresh vote absorbed: some item's per-process probability is not near 0 or 1. Find it "
            "with `tare oracle stability --trials 100 -- ...`, then quarantine it or drop its "
            "class (docs/oracle.md).\n",
            used, 1 + o.retries, r.processes, used == 2 ? "attempt was" : "attempts were");
      }
      break;
    case CheckVerdict::kMismatch: {
      const bool header = r.attempts.back().comparison->header_differs;
      if (header) {
        out += fmt::format(
            "result: MISMATCH: the header differs from the golden ({} processes). Header lines are "
            "identical in every trial, so this is a real change to the workload or tool, and no "
            "retry was spent on it. If the change is intended, rerun with --accept.\n",
            r.processes);
        break;
      }
      // Items that differed in every attempt are the real change; others flipped.
      std::map<std::string, int> times;
      for (const CheckAttempt& a : r.attempts) {
        for (const ItemDifference& d : a.comparison->differences) ++times[d.item];
      }
      std::vector<std::string> always;
      for (const auto& [item, n] : times) {
        if (n == used) always.push_back(item);
      }
      out += fmt::format(
          "result: MISMATCH on every attempt ({} of {}, {} processes): a real change fails every "
          "attempt, a flip does not. ",
          used, 1 + o.retries, r.processes);
      out += fmt::format("{} differed every time{}\n", Plural(static_cast<int>(always.size()), "item", "items"),
                         always.empty() ? " (each attempt failed on different items: several "
                                          "marginal items; run `tare oracle stability`)"
                                        : fmt::format(": {}{}", always.front(), always.size() > 1 ? ", ..." : ""));
      out += "  If the change is intended, rerun with --accept to write the new golden.\n";
      break;
    }
    case CheckVerdict::kNondeterministicHeader:
      out += fmt::format(
          "result: NONDETERMINISTIC HEADER ({} processes): the header lines (#) differ between "
          "trials, so the workload itself was not the same in every process and no vote means "
          "anything. Header lines must name only what is run (artifact, parameters, versions); "
          "print varying text such as timings as notes (## lines).\n",
          r.processes);
      break;
    case CheckVerdict::kAccepted: {
      const Tally& t = r.attempts.back().tally;
      out += fmt::format("result: ACCEPTED: wrote the vote of {} trials to {} ({}, {}){}.\n", t.trials, o.golden_path,
                         Plural(static_cast<int>(t.header().size()), "header line", "header lines"),
                         Plural(static_cast<int>(t.VotedItems().size()), "item", "items"),
                         r.had_golden ? "" : ", a new golden");
      if (!t.SplitItems().empty()) {
        out += fmt::format(
            "  warning: {} not unanimous (listed above); a vote pins them only if their "
            "per-process probability is far from 1/2. Run `tare oracle stability --trials 100 "
            "-- ...` before committing this golden.\n",
            Plural(static_cast<int>(t.SplitItems().size()), "item was", "items were"));
      }
      break;
    }
  }
  return out;
}

}  // namespace tare::oracle
