// Every subcommand of `tare`, one registration function each, in `tare --help`'s order: the table of
// contents of the command line (git's builtin.h keeps its commands the same way). Each AddXCommand
// adds its subcommand, flags and --help text to `app`; when the subcommand runs, it sets *exit_code
// (exit_codes.h). The work of each is in the module its file names; the docs/ page says the rules.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tare::cli {

// `tare run`: measure a command, a Google Benchmark binary or a tare benchmark binary in fresh
// processes, store every sample as it completes, print a table (session/plain_run.h).
// `target_argv` is TARGET [ARGS...], cut from argv before CLI11 sees it (invocation.h SplitAtTarget).
void AddRunCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_argv);
// Starts asking git about the working directory on a thread of its own before the command line is
// parsed (env/provenance.h StartGitProvenance); `tare run` takes the answer. Not when --no-git comes
// before the target's "--".
void StartGitEarly(const std::vector<std::string>& args);

// `tare export` (everything stored for a run, as JSON) and `tare runs` (what the store holds).
void AddExportCommand(CLI::App& app, int* exit_code);
void AddRunsCommand(CLI::App& app, int* exit_code);

// `tare compare BASE HEAD`: what changed between two stored runs, benchmark by benchmark
// (compare/; docs/compare.md).
void AddCompareCommand(CLI::App& app, int* exit_code);

// `tare history BENCH`: one benchmark's metric over stored runs of one host type, with change points
// (compare/stored_history.h).
void AddHistoryCommand(CLI::App& app, int* exit_code);

// `tare site -o DIR`: a static site of every benchmark in a store (html/site_pages.h; docs/ci.md).
void AddSiteCommand(CLI::App& app, int* exit_code);

// `tare variance [RUN...]`: how much each benchmark varies within a run and across reruns; which are
// too noisy to gate (compare/variance.h).
void AddVarianceCommand(CLI::App& app, int* exit_code);

// `tare env`: the host fingerprint and its stability checks, readable or as tare.fingerprint/1 JSON
// (env/; docs/fingerprint.md). Writes nothing but stdout; the checks are advice (exit 0).
void AddEnvCommand(CLI::App& app, int* exit_code);

// `tare oracle check | stability | counters -- CMD`: golden checks for discrete signals that may be
// nondeterministic, with votes, retries and quarantine (oracle/oracle_run.h; docs/oracle.md).
void AddOracleCommand(CLI::App& app, int* exit_code);

// `tare ab`: a paired A/B campaign, base against heads and a null A/A arm, with a verdict per cell
// and metric, a ledger and an exit status for CI (campaign/, publish/; docs/campaign.md).
// `target_args`: what followed a `--` on tare's command line (ARGS for every arm).
void AddAbCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_args);

// `tare attribute`: where a change in instructions went, per function, between two callgrind
// profiles (attribute/; docs/attribute.md).
void AddAttributeCommand(CLI::App& app, int* exit_code);

// `tare bisect`: the first commit between --good and --bad at which a benchmark changed, each commit
// built by the repository's recipe (bisect/; docs/bisect.md).
void AddBisectCommand(CLI::App& app, int* exit_code);

// `tare report`: a stored run, or two compared, as one self-contained HTML page (html/).
void AddReportCommand(CLI::App& app, int* exit_code);

// `tare import FILE`: a `tare export` document or an evidence bundle into a store, idempotently
// (bundle/, store/transfer.h).
void AddImportCommand(CLI::App& app, int* exit_code);

// `tare bundle --run N -o FILE` and `tare bundle verify FILE`: evidence bundles (bundle/;
// docs/bundle.md).
void AddBundleCommand(CLI::App& app, int* exit_code);

// `tare replay FILE`: verify a bundle, measure its run again on this host from the bundled
// executables, and show both hosts' results side by side (bundle/replay.h).
void AddReplayCommand(CLI::App& app, int* exit_code);

// `tare spread`: how far the same executable's figures moved across reruns, replays and hosts
// (bundle/spread.h).
void AddSpreadCommand(CLI::App& app, int* exit_code);

// `tare merge OUT IN...` and `tare push --to URL`: whole runs from several stores into one, by uid,
// so twice adds nothing (store/transfer.h; docs/scale-out.md).
void AddMergeCommand(CLI::App& app, int* exit_code);
void AddPushCommand(CLI::App& app, int* exit_code);

// `tare shards`: the merged view of sharded runs (session/shard_view_reader.h, report/shards_view.h).
void AddShardsCommand(CLI::App& app, int* exit_code);

}  // namespace tare::cli
