// The manifest of an evidence bundle (schema "tare.bundle/1", docs/bundle.md): what the bundle
// holds, with the sha256 and size of every member, which run it is evidence of, and which
// executables and libraries that run used.
//
// A bundle's members:
//   manifest.json        this record
//   manifest.sha256      the sha256 of manifest.json, so a changed manifest is caught as well
//   run.json             the run as `tare export` writes it (tare.run/2): every sample of every
//                        arm, cohort and look, discarded samples flagged, lock, cells, verdicts
//   fingerprint.json     the host fingerprint the run was measured on (tare.fingerprint/1)
//   campaign.toml | campaign.json   the campaign as declared (`tare ab` runs)
//   lock.json            the lock record (`tare ab` runs)
//   plan.json            the run's resolved options (`tare run` runs)
//   ledger.md, result.json   the ledger and tare.ab/1 JSON (`tare ab` runs)
//   bin/<role>           every executable the run used (one member per distinct sha256)
//   lib/<name>           with --with-libs: the libraries the run loaded (else by hash only)
//   profiles/<n>/<name>  kept profiles (callgrind), n = the benchmark's index in run.json
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "model/kinds.h"

namespace tare::bundle {

inline constexpr char kBundleSchema[] = "tare.bundle/1";
inline constexpr char kManifestMember[] = "manifest.json";
inline constexpr char kManifestHashMember[] = "manifest.sha256";

struct ManifestMember {
  std::string name;
  std::string sha256;
  int64_t size = 0;
};

// An executable or library the run used. `member` is "" when it is listed by hash only.
struct ManifestFile {
  std::string role;  // executables: "target", "base", "head", "hd02", "null"; libraries: "libc", "loader"
  std::string path;  // where it was on the measuring host
  std::string sha256;
  std::string member;
};

struct Manifest {
  int64_t created_unix_ns = 0;
  std::string tare_version;
  std::string run_uid;
  RunKind run_kind = RunKind::kRun;
  int64_t run_id = 0;                   // in the store the bundle was made from
  std::string lock_sha256;              // `tare ab` runs
  std::vector<ManifestMember> members;  // every member but manifest.json and manifest.sha256
  std::vector<ManifestFile> executables;
  std::vector<ManifestFile> libraries;

  const ManifestMember* Find(const std::string& name) const;
};

nlohmann::json ManifestToJson(const Manifest& m);
// DataLoss naming the field when `j` is not a tare.bundle/1 manifest.
StatusOr<Manifest> ManifestFromJson(const nlohmann::json& j);

}  // namespace tare::bundle
