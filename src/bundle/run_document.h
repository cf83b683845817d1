// The export document of one stored run: what `tare export` writes, `tare import` reads and an
// evidence bundle carries as run.json (schema "tare.run/2", docs/json.md).
//
// It is report::RunToJson (the run, its fingerprint, executables, metrics, notes, every sample with
// its outcome, tails and values, discarded samples flagged, per-arm summaries) plus what only the
// store holds: the run's kept artifacts (callgrind profiles) and, for a `tare ab` cohort, the
// campaign — the cohort record with the campaign text, resolved spec and lock, the cells, the
// verdicts of every look and the gates and bounds. Reading it back gives a store::FullRun that
// store::WriteFullRun puts into a store exactly: import(export(run)) is the run again.
//
// Bytes that are not UTF-8 (tails, argv, paths, campaign text) are written as {"base64": ...}
// (report::BytesToJson), so nothing is replaced on the way. An older "tare.run/1" document (no
// uid, no campaign, no artifacts) is read too; its run gets a uid derived from its content, so
// importing it twice still adds nothing.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "store/transfer.h"

namespace tare::bundle {

// Artifacts inline as base64 (`tare export`), or as {"member": NAME} naming a bundle member.
enum class ArtifactContent { kInline, kMembers };

// The member a kept artifact goes to in a bundle: "profiles/<benchmark index>/<name>".
std::string ArtifactMember(size_t benchmark_index, const std::string& name);

nlohmann::json FullRunToJson(const store::FullRun& run, ArtifactContent artifacts);

// Reads a tare.run/2 or tare.run/1 document. `read_member` resolves {"member": NAME} artifacts
// (a bundle's); without it such a document is refused. DataLoss naming the field on bad input.
using MemberReader = std::function<StatusOr<std::string>(const std::string&)>;
StatusOr<store::FullRun> FullRunFromJson(const nlohmann::json& j, const MemberReader& read_member = nullptr);

}  // namespace tare::bundle
