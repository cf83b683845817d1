// Writing an evidence bundle (`tare bundle --run N -o FILE`): one gzip'd tar that lets someone else
// check a result and measure it again — the run's export document with every raw sample, the
// campaign and lock, every executable the run used, kept profiles, the host fingerprint, the
// ledger, and a manifest with the sha256 of every member (manifest.h lists the members).
//
// Executables are taken from where the run left them and must still have the sha256 the run
// recorded: for a `tare ab` cohort the arm copy under <store dir>/bin/ (a later campaign replaces
// those copies) or else the declared source; for `tare run` the recorded path. An executable that
// no longer has its recorded bytes anywhere is an error naming it — a bundle never carries a
// different build than the one measured. Libraries the run recorded (the C library and the
// dynamic loader of the fingerprint) are listed by path and sha256, and bundled with `with_libs`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "store/store.h"

namespace tare::bundle {

struct BundleOptions {
  int64_t run_id = 0;
  std::string store_dir;  // the store's directory: bin/ (arm copies) and ledgers/ are there
  std::string output;     // the bundle file; written whole or not at all
  bool with_libs = false;
  std::string tare_version;
};

struct BundleSummary {
  int64_t members = 0;
  int64_t bytes = 0;  // uncompressed
  int64_t archive_bytes = 0;
  std::vector<std::string> notes;  // what was left out and why (a ledger that was never written)
};

StatusOr<BundleSummary> WriteBundle(store::Store& store, const BundleOptions& options);

// Whether an existing file may be replaced by a new bundle: only a bundle tare wrote (a gzip'd tar
// whose first member is a tare.bundle/1 manifest). FailedPrecondition naming the file otherwise.
Status CheckReplaceableBundle(const std::string& path);

}  // namespace tare::bundle
