#include "bundle/bundle_writer.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>

#include "base/files.h"
#include "base/json_read.h"
#include "base/json_text.h"
#include "base/sha256.h"
#include "bundle/archive.h"
#include "bundle/manifest.h"
#include "bundle/run_document.h"
#include "bundle/stored_report.h"
#include "campaign/lock.h"
#include "report/ab_json.h"
#include "report/ledger.h"
#include "store/transfer.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

// A file the run used, and where a copy with its recorded bytes is now.
struct UsedFile {
  std::string role;
  std::string recorded_path;
  std::string sha256;
  std::vector<std::string> candidates;  // where to look, in order
};

// The first candidate whose sha256 is the recorded one; "" when none is.
std::string FindByHash(const UsedFile& f) {
  for (const auto& c : f.candidates) {
    if (c.empty()) continue;
    auto sha = Sha256File(c);
    if (sha.ok() && *sha == f.sha256) return c;
  }
  return "";
}

StatusOr<std::vector<UsedFile>> ExecutablesOf(const store::FullRun& run, const std::string& store_dir) {
  std::vector<UsedFile> out;
  if (run.cohort) {
    // The lock says which copy ran for each arm and what it was copied from. A lock that cannot be
    // read names no build to carry: the bundle is refused, not written around it.
    TARE_ASSIGN_OR_RETURN(
        const campaign::Lock lock,
        campaign::LockFromJsonText(run.cohort->lock_json, fmt::format("run {}'s lock", run.data.run.id)));
    for (const auto& e : lock.executables) {
      UsedFile f;
      f.role = e.arm;
      f.recorded_path = e.path;
      f.sha256 = e.sha256;
      f.candidates = {f.recorded_path, (std::filesystem::path(store_dir) / "bin" / f.role).string(), e.source};
      out.push_back(f);
    }
    return out;
  }
  for (const auto& e : run.data.executables) {
    out.push_back({e.role, e.path, e.sha256, {e.path}});
  }
  return out;
}

// The libraries the run recorded: "<name>.path" and "<name>.sha256" keys of its fingerprint
// (the C library and the dynamic loader).
// No fingerprint text (a run stored before it was kept) lists none; text that is not JSON is damage.
// The keys are looked for, not required: a fingerprint from another tare may lack them.
StatusOr<std::vector<UsedFile>> LibrariesOf(const store::FullRun& run) {
  std::vector<UsedFile> out;
  TARE_ASSIGN_OR_RETURN(
      const json fp,
      ParseJsonOr(run.data.run.fingerprint_json, fmt::format("run {}'s fingerprint", run.data.run.id), json::object()));
  if (!fp.is_object() || !fp.contains("keys") || !fp["keys"].is_array()) return out;
  std::map<std::string, std::string> keys;
  for (const auto& k : fp["keys"]) {
    if (k.is_object() && k.contains("key") && k.contains("value") && k["key"].is_string() && k["value"].is_string()) {
      keys[k["key"].get<std::string>()] = k["value"].get<std::string>();
    }
  }
  for (const auto& [key, value] : keys) {
    const std::string suffix = ".sha256";
    if (key.size() <= suffix.size() || key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string name = key.substr(0, key.size() - suffix.size());
    auto path = keys.find(name + ".path");
    if (path == keys.end() || value.size() != 64) continue;
    out.push_back({name, path->second, value, {path->second}});
  }
  return out;
}

// A stored JSON column as a member of its own, indented; text that is not JSON is carried as it is
// (the member holds what the store holds), empty text as null.
std::string Pretty(const std::string& json_text) {
  if (json_text.empty()) return "null\n";
  const auto j = ParseJson(json_text, "the member");
  return j.ok() ? DumpJson(*j, 2) + "\n" : json_text;
}

}  // namespace

Status CheckReplaceableBundle(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Status::Ok();
  auto first = ReadFirstMember(path, 64 << 20);
  if (first.ok() && first->name == kManifestMember) {
    // Any file may be there: text that is not JSON is simply not a bundle tare wrote.
    const auto j = ParseJson(first->content, "the first member");
    // Not j.value(): it throws on a "schema" that is not a string, and this file is not tare's yet.
    if (j.ok() && j->is_object() && j->contains("schema") && (*j)["schema"] == kBundleSchema) return Status::Ok();
  }
  return Status::FailedPrecondition(
      fmt::format("'{}' exists and is not a bundle tare wrote; tare bundle replaces only its own bundles. Choose "
                  "another -o path, or remove the file yourself",
                  path));
}

StatusOr<BundleSummary> WriteBundle(store::Store& store, const BundleOptions& o) {
  TARE_ASSIGN_OR_RETURN(store::FullRun run, store::ReadFullRun(store, o.run_id));
  BundleSummary summary;
  Manifest manifest;
  manifest.created_unix_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  manifest.tare_version = o.tare_version;
  manifest.run_uid = run.data.run.uid;
  manifest.run_kind = run.data.run.kind;
  manifest.run_id = run.data.run.id;
  if (run.cohort) manifest.lock_sha256 = run.cohort->lock_sha256;

  std::vector<ArchiveMember> members;
  auto add_text = [&](const std::string& name, std::string content) {
    members.push_back({name, std::move(content), "", false});
  };
  add_text("run.json", DumpJson(FullRunToJson(run, ArtifactContent::kMembers), 2) + "\n");
  if (!run.data.run.fingerprint_json.empty()) add_text("fingerprint.json", Pretty(run.data.run.fingerprint_json));
  for (const auto& a : run.artifacts) {
    size_t index = 0;
    for (size_t i = 0; i < run.data.benchmarks.size(); ++i) {
      if (run.data.benchmarks[i].id == a.benchmark_id) index = i;
    }
    add_text(ArtifactMember(index, a.name), a.content);
  }
  if (run.cohort) {
    const bool from_file = run.cohort->campaign_source.rfind("file:", 0) == 0;
    add_text(from_file ? "campaign.toml" : "campaign.json", run.cohort->campaign_text);
    add_text("lock.json", Pretty(run.cohort->lock_json));
    // The ledger tare ab wrote, when it wrote one to a file; else one rebuilt from the store.
    // result.json (tare.ab/1) always comes from the store.
    const std::string ledger = store::KeptLedgerPath(o.store_dir, o.run_id);
    auto rebuilt = StoredCohortReport(store, run);
    if (auto text = ReadFile(ledger); text.ok()) {
      add_text("ledger.md", *text);
    } else if (rebuilt.ok()) {
      add_text("ledger.md", report::RenderLedger(*rebuilt));
    }
    if (rebuilt.ok()) {
      add_text("result.json", DumpJson(report::AbReportToJson(*rebuilt), 2) + "\n");
    } else {
      summary.notes.push_back("no ledger.md or result.json: " + rebuilt.status().message() +
                              "; the verdicts of every look are in run.json");
    }
  } else {
    add_text("plan.json", Pretty(run.data.run.options_json));
  }

  std::map<std::string, std::string> member_of_sha;
  TARE_ASSIGN_OR_RETURN(const std::vector<UsedFile> executables, ExecutablesOf(run, o.store_dir));
  TARE_ASSIGN_OR_RETURN(const std::vector<UsedFile> libraries, LibrariesOf(run));
  for (const auto& f : executables) {
    ManifestFile mf{f.role, f.recorded_path, f.sha256, ""};
    auto known = member_of_sha.find(f.sha256);
    if (known != member_of_sha.end()) {
      mf.member = known->second;  // the null arm is a copy of base: one member for both
    } else {
      const std::string found = FindByHash(f);
      if (found.empty()) {
        std::string looked;
        for (const auto& c : f.candidates) looked += (looked.empty() ? "" : ", ") + ("'" + c + "'");
        return Status::FailedPrecondition(fmt::format(
            "the {} executable the run measured (sha256 {}) is no longer on this host: none of {} has those "
            "bytes (a later campaign replaces the arm copies under <store dir>/bin/; a rebuild replaces "
            "the source). A bundle only carries the build that was measured",
            f.role, f.sha256, looked));
      }
      mf.member = "bin/" + f.role;
      if (!MemberNameProblem(mf.member).empty()) mf.member = "bin/" + f.sha256.substr(0, 16);
      member_of_sha[f.sha256] = mf.member;
      members.push_back({mf.member, "", found, true});
    }
    manifest.executables.push_back(mf);
  }
  for (const auto& f : libraries) {
    ManifestFile mf{f.role, f.recorded_path, f.sha256, ""};
    if (o.with_libs) {
      const std::string found = FindByHash(f);
      if (found.empty()) {
        summary.notes.push_back(
            fmt::format("library {} ('{}') has changed on this host since the run; listed by "
                        "hash only",
                        f.role, f.recorded_path));
      } else {
        mf.member = "lib/" + f.role;
        members.push_back({mf.member, "", found, false});
      }
    }
    manifest.libraries.push_back(mf);
  }

  for (const auto& m : members) {
    ManifestMember mm;
    mm.name = m.name;
    if (m.file.empty()) {
      mm.sha256 = Sha256Hex(m.content);
      mm.size = static_cast<int64_t>(m.content.size());
    } else {
      TARE_ASSIGN_OR_RETURN(mm.sha256, Sha256File(m.file));
      mm.size = static_cast<int64_t>(std::filesystem::file_size(m.file));
    }
    summary.bytes += mm.size;
    manifest.members.push_back(mm);
  }
  const std::string manifest_text = DumpJson(ManifestToJson(manifest), 2) + "\n";
  // The manifest first: a quick look at the first member tells a bundle (CheckReplaceableBundle).
  members.insert(members.begin(), {ArchiveMember{kManifestMember, manifest_text, "", false},
                                   ArchiveMember{kManifestHashMember, Sha256Hex(manifest_text) + "\n", "", false}});
  summary.members = static_cast<int64_t>(members.size());

  // Written beside the destination and renamed: a reader never sees half a bundle, and a failure
  // leaves the old file.
  const std::string tmp = o.output + ".tmp." + std::to_string(getpid());
  if (Status s = WriteArchive(tmp, members); !s.ok()) {
    std::filesystem::remove(tmp);
    return s;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, o.output, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    return Status::InvalidArgument(fmt::format("cannot write '{}': {}", o.output, ec.message()));
  }
  summary.archive_bytes = static_cast<int64_t>(std::filesystem::file_size(o.output));
  return summary;
}

}  // namespace tare::bundle
