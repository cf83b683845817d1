// `tare replay`: measuring a bundle's run again on this host, from the bundle's own executables.
//
// The bundle is verified first (OpenBundle). The original run is imported into the store
// (idempotent), so the replay and what it replays sit side by side there and `tare spread` can
// read both. Then:
//   - a `tare ab` cohort is run again as a new cohort of the same campaign declaration: the
//     resolved spec the store kept (same metrics, allowances, plan, looks, arm order and seed),
//     with each arm's executable replaced by the bundled file of the same sha256;
//   - a `tare run` is run again with the options it recorded (samples, warm-ups, instrument,
//     filter, arguments, environment overrides), its program replaced by the bundled one.
// The new run carries the original's provenance (commit, branch, tags) and the tag
// replay-of=<the original's lock sha256> (`tare ab`) or replay-of=<the original run's uid>.
//
// Hosts are never pooled: the result holds the two hosts' fingerprint differences (hard and soft
// keys) and the two runs' verdicts or medians side by side, without judging one against the other.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "bundle/opened_bundle.h"
#include "env/fingerprint_json.h"
#include "proc/spawner.h"
#include "store/store.h"
#include "store/transfer.h"

namespace tare::bundle {

inline constexpr char kReplayTag[] = "replay-of";

struct ReplayOptions {
  std::string store_path;                 // arm copies go to its directory's bin/
  std::vector<std::string> command_line;  // tare's argv, recorded with the new run
  std::string tare_version;
  std::vector<std::string> base_env;  // tare's environment
  // The bundle's environment variables that the dynamic loader or the C library act on
  // (LoaderVariable) are refused unless the user trusts the bundle's maker (--trust-env).
  bool trust_env = false;
  std::function<void(const std::string&)> progress;
  std::function<void(const std::string&)> notice;
};

// One row of the side-by-side table: a cell's (or benchmark's) metric on each host.
struct SideBySide {
  std::string benchmark;  // cell name (ab) or benchmark name (run)
  std::string arm;        // run: the arm whose medians these are ("" for tare run); ab: the head
  std::string metric;
  std::string unit;
  std::string original;  // "PASS +0.12% [-0.30%, +0.41%]" or a median
  std::string replay;
};

struct ReplayResult {
  RunKind kind = RunKind::kRun;
  int64_t original_run_id = 0;  // in this store
  bool original_added = false;  // false: the store already held it
  int64_t replay_run_id = 0;
  std::string replay_of;             // the tag's value
  env::FingerprintComparison hosts;  // original host (a) against this one (b)
  std::vector<SideBySide> rows;
  bool interrupted = false;
  std::vector<std::string> notes;  // what was adjusted (a cwd that does not exist here)
};

// Whether the dynamic loader or the C library acts on environment variable `key`: every LD_*,
// GLIBC_TUNABLES, and the rest of glibc's list of variables it drops for set-user-ID programs
// (GCONV_PATH, LOCPATH, NLSPATH, HOSTALIASES, ...). Through them a bundle could load code or read
// files of its choosing on the replaying host, whatever executable it carries.
bool LoaderVariable(std::string_view key);

// What a bundled run sets for the programs it runs on replay: environment overrides (the run's,
// or the campaign's and each cell's), the working directory, and the arguments after the program.
struct ReplaySettings {
  std::vector<std::string> env;  // KEY=VALUE
  std::string cwd;
  std::vector<std::string> args;
};
StatusOr<ReplaySettings> SettingsOf(const store::FullRun& original);

StatusOr<ReplayResult> Replay(const OpenedBundle& bundle, store::Store& store, proc::Spawner& spawner,
                              const ReplayOptions& options);

// For people: the fingerprint differences, then the side-by-side table.
std::string RenderReplay(const ReplayResult& result);

}  // namespace tare::bundle
