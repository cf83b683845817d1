#include "cli/commands.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "oracle/oracle_run.h"
#include "store/store.h"

namespace tare::cli {
namespace {

using namespace tare::oracle;

// 3 is shared with `ab`'s INCONCLUSIVE: in both, no verdict can be formed from what ran.
constexpr int kExitNondeterministic = 3;

constexpr const char* kExitStatusHelp = R"(
Exit status: 0 match / nothing flagged / --accept wrote the golden; 1 mismatch (a real change;
stability: an item cannot be pinned); 2 usage error or broken command (non-zero exit, crash,
timeout, missing or empty report: no verdict, and no retry is spent on it); 3 nondeterministic
(header lines differ between trials; counters: the two runs differ); 70 internal error;
130 interrupted.
)";

constexpr const char* kReportHelp = R"(
Report syntax (docs/oracle.md): lines starting with # are header lines and must be identical in
every trial; ## lines are notes and ignored; every other non-empty line is one item. Whitespace is
normalized. The report is the command's stdout, or the file passed as {report} in its arguments,
or the file named by --report.
Raw output of every trial: .tare/oracle/<UTC timestamp>/ (or --run-dir), named in the report.)";

void AddCommonOptions(CLI::App* sub, OracleInvocation* o) {
  sub->add_option("--run-dir", o->run_dir,
                  "Keep every trial's raw output here (absent or empty; default .tare/oracle/<UTC timestamp>)");
  sub->add_option("--report", o->report_path,
                  "The command writes its report to this file instead of stdout; it must not exist beforehand (moved "
                  "away after each trial)");
  sub->add_option("--timeout", o->timeout,
                  "Per-trial limit, e.g. 30s or 2m, at most 7 days (default none); a timeout is an error");
  sub->prefix_command();
}

// The command and its arguments. CLI11 (2.1) hands them to different apps depending on the form:
// `check [OPTIONS] CMD ARGS` leaves them in the subcommand's remaining() (prefix_command), while
// after `--` a nested subcommand without positionals returns to its parent, so `oracle` (also a
// prefix command) collects them. Either way nothing after CMD is read as tare's option. An unknown
// option before CMD also lands in remaining(): it is reported as such, not run as a program.
StatusOr<std::vector<std::string>> CommandArgs(CLI::App* sub, CLI::App* oracle) {
  std::vector<std::string> argv = sub->remaining();
  if (!argv.empty() && argv.front() != "--" && argv.front().size() > 1 && argv.front()[0] == '-') {
    return Status::InvalidArgument(fmt::format("unknown option '{}' for `tare oracle {}`; see `tare oracle {} --help`",
                                               argv.front(), sub->get_name(), sub->get_name()));
  }
  if (argv.empty()) argv = oracle->remaining();
  if (!argv.empty() && argv.front() == "--") argv.erase(argv.begin());
  return argv;
}

// The report on stdout, its control bytes made visible (base/terminal_text.h; the copy kept in the
// run directory is the report as it was), and the exit status of its outcome.
StatusOr<int> Print(StatusOr<OracleResult> result) {
  if (!result.ok()) return result.status();
  const std::string shown = TerminalText(result->report);
  std::fwrite(shown.data(), 1, shown.size(), stdout);
  std::fflush(stdout);
  for (const auto& w : result->warnings) fmt::print(stderr, "tare: warning: {}\n", TerminalText(w));
  switch (result->outcome) {
    case OracleOutcome::kPass:
      return kExitOk;
    case OracleOutcome::kMismatch:
      return kExitFailed;
    case OracleOutcome::kNondeterministic:
      return kExitNondeterministic;
  }
  return kExitInternal;
}

struct CheckFlags {
  OracleInvocation common;
  CheckOptions check;
  std::string quarantine_path;
};

struct StabilityFlags {
  OracleInvocation common;
  StabilityOptions stability;
  std::string quarantine_path;
};

struct CountersFlags {
  OracleInvocation common;
  CountersOptions counters;
};

}  // namespace

void AddOracleCommand(CLI::App& app, int* exit_code) {
  CLI::App* oracle = app.add_subcommand(
      "oracle", "Golden checks for discrete signals: majority votes, retries, quarantine, flip odds");
  oracle->require_subcommand(1);
  oracle->prefix_command();  // collects CMD ARGS after `--` (see CommandArgs)
  oracle->footer(std::string(R"(
Discrete signals (which lines a JIT compiled, which paths ran, counter censuses) pinned in golden
files. A nondeterministic signal is pinned by a majority vote over fresh processes; a vote on an
item whose per-process probability p is near 1/2 flips by luck (9 trials: p = 0.6 -> 27% of runs),
so a mismatch is re-voted, and items no vote can pin are quarantined with a reason.
  check      vote, compare with the golden, retry on mismatch
  stability  measure each item's p and the odds that the check goes red because of it
  counters   exact golden for signals that are pure functions of the artifact

Examples:
  tare oracle check --golden g.txt --accept -- ./trace                 write the golden (review the diff)
  tare oracle check --golden g.txt -- ./trace                          vote, compare, retry on mismatch
  tare oracle stability --trials 20 -- ./trace                         each item's p and the odds of a red check
Each mode's --help says more: tare oracle check --help.
)") + kExitStatusHelp);

  auto check = std::make_shared<CheckFlags>();
  CLI::App* c = oracle->add_subcommand("check", "Majority-vote golden check with retries and quarantine");
  c->add_option("--golden,-g", check->check.golden_path, "Golden file (created by --accept)")->required();
  c->add_option("--trials,-n", check->check.trials, "Fresh processes per vote; odd (default 9)");
  c->add_option("--retries,-r", check->check.retries,
                "Re-votes after a mismatch; passes if any attempt matches (default 1)");
  c->add_option("--quarantine,-q", check->quarantine_path,
                "Reviewed list of items left out of the comparison, each with a reason");
  c->add_flag("--accept", check->check.accept, "Vote once and write the result as the golden");
  AddCommonOptions(c, &check->common);
  c->footer(std::string(R"(
Examples:
  tare oracle check --golden bench/trace.golden -- ./bench/trace_report RefLoop.lua
  tare oracle check --golden g.txt --quarantine bench/trace.quarantine --retries 1 -- ./trace --out {report}
  tare oracle check --golden g.txt --accept -- ./trace      # write the golden (review the diff)
An attempt runs --trials processes; an item is voted present when more than half show it. On a
mismatch a fresh attempt runs, up to --retries times: a flip of a marginal item is luck, a real
change fails every attempt. A header that differs from the golden's is never retried.)") +
            kReportHelp + kExitStatusHelp);
  c->callback([check, exit_code, c, oracle]() {
    auto argv = CommandArgs(c, oracle);
    if (!argv.ok()) {
      *exit_code = Finish(argv.status());
      return;
    }
    check->common.argv = std::move(argv).value();
    *exit_code = Finish(Print(
        RunCheckMode(check->common, check->check, check->quarantine_path, store::StoreFiles(DefaultStorePath()))));
  });

  auto stability = std::make_shared<StabilityFlags>();
  CLI::App* s = oracle->add_subcommand(
      "stability", "Each item's per-process probability, and the odds a vote goes red because of it");
  s->add_option("--trials,-n", stability->stability.trials, "Fresh processes to measure (default 100)");
  s->add_option("--vote-trials", stability->stability.vote_trials,
                "Trials per vote of the check being judged (default 9)");
  s->add_option("--retries,-r", stability->stability.retries, "Retries of the check being judged (default 1)");
  s->add_option("--golden,-g", stability->stability.golden_path,
                "Judge against this golden's sides (default: the majority side)");
  s->add_option("--quarantine,-q", stability->quarantine_path, "Quarantine file: its items are shown but not flagged");
  s->add_option("--confidence", stability->stability.confidence, "Of the Clopper–Pearson intervals (default 0.95)");
  s->add_option("--max-red", stability->stability.max_red,
                "Flag an item when P(check goes red because of it) exceeds this (default 0.001)");
  AddCommonOptions(s, &stability->common);
  s->footer(std::string(R"(
For every item: k of M processes showed it, p = k/M with a Clopper–Pearson interval, the
probability q that one N-trial vote lands on the wrong side (P(Binom(N, p) <= N/2) for an item
pinned present), and P(red) = q^(R+1) with R retries -- exact binomial arithmetic, no simulation,
at p and at the interval's worst end. Flagged items get suggested quarantine entries (printed and
kept in the run directory as suggested-quarantine.txt).

Examples:
  tare oracle stability -- ./trace                  100 processes: each item's p and P(red)
  tare oracle stability --trials 200 --golden bench/trace.golden -- ./bench/trace_report RefLoop.lua)") +
            kReportHelp + kExitStatusHelp);
  s->callback([stability, exit_code, s, oracle]() {
    auto argv = CommandArgs(s, oracle);
    if (!argv.ok()) {
      *exit_code = Finish(argv.status());
      return;
    }
    stability->common.argv = std::move(argv).value();
    *exit_code = Finish(Print(RunStabilityMode(stability->common, stability->stability, stability->quarantine_path)));
  });

  auto counters = std::make_shared<CountersFlags>();
  CLI::App* k = oracle->add_subcommand(
      "counters", "Exact golden for deterministic signals: run twice, require byte-stable, compare");
  k->add_option("--golden,-g", counters->counters.golden_path, "Counters golden (created by --accept)")->required();
  k->add_flag("--accept", counters->counters.accept, "Write the (byte-stable) report as the golden");
  AddCommonOptions(k, &counters->common);
  k->footer(std::string(R"(
For signals that are pure functions of the artifact (instruction counts, opcode censuses): the
command runs twice, the two reports must be byte for byte identical, and the report must equal the
golden exactly (a line diff is shown otherwise). No vote, no retry.

Examples:
  tare oracle counters --golden bench/census.golden --accept -- ./bench/census RefLoop.lua   write it
  tare oracle counters --golden bench/census.golden -- ./bench/census RefLoop.lua)") +
            kExitStatusHelp);
  k->callback([counters, exit_code, k, oracle]() {
    auto argv = CommandArgs(k, oracle);
    if (!argv.ok()) {
      *exit_code = Finish(argv.status());
      return;
    }
    counters->common.argv = std::move(argv).value();
    *exit_code =
        Finish(Print(RunCountersMode(counters->common, counters->counters, store::StoreFiles(DefaultStorePath()))));
  });
}

}  // namespace tare::cli
