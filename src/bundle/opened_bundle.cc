#include "bundle/opened_bundle.h"

#include <fmt/format.h>

#include <set>

#include "base/files.h"
#include "base/json_read.h"
#include "base/sha256.h"
#include "bundle/archive.h"
#include "bundle/run_document.h"
#include "campaign/lock.h"

namespace tare::bundle {
namespace {

// The run's own record of its executables must name the builds the manifest does (issue 27,
// item 6): a manifest rewritten around another executable does not verify. run.json records them
// in the cohort's lock (tare ab: arm -> sha256) or as the run's executables (tare run: role ->
// sha256), as the bundle writer read them.
void CheckRunRecord(const std::map<std::string, std::string>& paths, const Manifest& manifest,
                    std::vector<std::string>* problems) {
  auto it = paths.find("run.json");
  if (it == paths.end()) {
    problems->push_back("member 'run.json' is missing: the bundle holds no run");
    return;
  }
  auto text = ReadFile(it->second);
  if (!text.ok()) {
    problems->push_back(fmt::format("member 'run.json' cannot be read: {}", text.status().message()));
    return;
  }
  const auto j = ParseJson(*text, "member 'run.json'");
  if (!j.ok()) {
    problems->push_back(j.status().message());
    return;
  }
  // Read as import reads it: the profiles it names come from their members.
  auto run = FullRunFromJson(*j, [&paths](const std::string& member) -> StatusOr<std::string> {
    auto p = paths.find(member);
    if (p == paths.end()) return Status::NotFound(fmt::format("member '{}' is missing", member));
    return ReadFile(p->second);
  });
  if (!run.ok()) {
    problems->push_back(fmt::format("member 'run.json' is not a run tare can read: {}", run.status().message()));
    return;
  }
  std::map<std::string, std::string> recorded;  // role -> sha256
  if (run->cohort) {
    // A cohort ran the executables its lock names; a lock that cannot be read is a problem of the
    // bundle, not a reason to check against something else.
    auto lock = campaign::LockFromJsonText(run->cohort->lock_json, "member 'run.json': the cohort's lock");
    if (!lock.ok()) {
      problems->push_back(lock.status().message());
      return;
    }
    for (const auto& e : lock->executables) recorded[e.arm] = e.sha256;
  } else {
    for (const auto& e : run->data.executables) recorded[e.role] = e.sha256;
  }
  for (const auto& f : manifest.executables) {
    if (f.member.empty()) continue;
    auto r = recorded.find(f.role);
    if (r == recorded.end()) {
      problems->push_back(fmt::format("executable '{}' (member '{}') is not one the run recorded in run.json",
                                      f.role, f.member));
    } else if (r->second != f.sha256) {
      problems->push_back(fmt::format("executable '{}' (member '{}') has sha256 {}, but run.json recorded {} for it",
                                      f.role, f.member, f.sha256, r->second));
    }
  }
}

}  // namespace

struct BundleOpener {
  static void Set(OpenedBundle* b, std::string temp, std::string dir, Manifest manifest,
                  std::map<std::string, std::string> paths) {
    b->temp_ = std::move(temp);
    b->dir_ = std::move(dir);
    b->manifest_ = std::move(manifest);
    b->paths_ = std::move(paths);
  }
};

OpenedBundle::OpenedBundle(OpenedBundle&& other) noexcept { *this = std::move(other); }

OpenedBundle& OpenedBundle::operator=(OpenedBundle&& other) noexcept {
  if (this != &other) {
    if (!temp_.empty()) RemoveTree(temp_);
    temp_ = std::move(other.temp_);
    dir_ = std::move(other.dir_);
    manifest_ = std::move(other.manifest_);
    paths_ = std::move(other.paths_);
    other.temp_.clear();
  }
  return *this;
}

OpenedBundle::~OpenedBundle() {
  if (!temp_.empty()) RemoveTree(temp_);
}

std::string OpenedBundle::PathOf(const std::string& member) const {
  auto it = paths_.find(member);
  return it == paths_.end() ? "" : it->second;
}

StatusOr<std::string> OpenedBundle::Read(const std::string& member) const {
  const std::string path = PathOf(member);
  if (path.empty()) return Status::DataLoss(fmt::format("the bundle has no member '{}'", member));
  return ReadFile(path);
}

StatusOr<OpenedBundle> OpenBundle(const std::string& path, VerifyResult* result) {
  VerifyResult local;
  VerifyResult& r = result != nullptr ? *result : local;
  r = {};
  TARE_ASSIGN_OR_RETURN(std::string temp, MakeTempDir("tare-bundle"));
  OpenedBundle bundle;
  // Owns the directory from here on: removed on every return below.
  BundleOpener::Set(&bundle, temp, temp, {}, {});
  auto extracted = ExtractArchive(path, temp);
  if (!extracted.ok()) {
    r.problems.push_back(extracted.status().message());
    return extracted.status();
  }
  std::map<std::string, std::string> paths;
  std::map<std::string, int64_t> sizes;
  for (const auto& m : *extracted) {
    paths[m.name] = m.path;
    sizes[m.name] = m.size;
    r.bytes += m.size;
  }
  auto fail = [&]() -> Status {
    std::string first;
    for (size_t i = 0; i < r.problems.size() && i < 3; ++i) first += (i ? "; " : "") + r.problems[i];
    if (r.problems.size() > 3) first += fmt::format("; and {} more", r.problems.size() - 3);
    return Status::DataLoss(fmt::format("bundle '{}' failed verification: {}", path, first));
  };

  if (paths.count(kManifestMember) == 0) {
    r.problems.push_back(fmt::format("member '{}' is missing: this is not a tare bundle", kManifestMember));
    return fail();
  }
  auto manifest_text = ReadFile(paths[kManifestMember]);
  if (!manifest_text.ok()) return manifest_text.status();
  const std::string manifest_sha = Sha256Hex(*manifest_text);
  ++r.members;
  if (paths.count(kManifestHashMember) == 0) {
    r.problems.push_back(fmt::format("member '{}' is missing", kManifestHashMember));
  } else {
    auto recorded = ReadFile(paths[kManifestHashMember]);
    std::string want = recorded.ok() ? *recorded : "";
    while (!want.empty() && (want.back() == '\n' || want.back() == ' ')) want.pop_back();
    ++r.members;
    if (want != manifest_sha) {
      r.problems.push_back(fmt::format("member '{}' is tampered: its sha256 is {}, {} says {}", kManifestMember,
                                       manifest_sha, kManifestHashMember, want.substr(0, 64)));
    }
  }
  const auto j = ParseJson(*manifest_text, fmt::format("member '{}'", kManifestMember));
  if (!j.ok()) {
    r.problems.push_back(j.status().message());
    return fail();
  }
  auto manifest = ManifestFromJson(*j);
  if (!manifest.ok()) {
    r.problems.push_back(manifest.status().message());
    return fail();
  }

  std::set<std::string> listed = {kManifestMember, kManifestHashMember};
  for (const auto& m : manifest->members) {
    listed.insert(m.name);
    auto it = paths.find(m.name);
    if (it == paths.end()) {
      r.problems.push_back(fmt::format("member '{}' is missing", m.name));
      continue;
    }
    ++r.members;
    auto sha = Sha256File(it->second);
    if (!sha.ok()) return sha.status();
    if (*sha != m.sha256 || sizes[m.name] != m.size) {
      r.problems.push_back(fmt::format("member '{}' is tampered: sha256 {} ({} bytes), the manifest says {} ({} bytes)",
                                       m.name, *sha, sizes[m.name], m.sha256, m.size));
    }
  }
  for (const auto& [name, p] : paths) {
    if (listed.count(name) == 0) r.problems.push_back(fmt::format("member '{}' is not in the manifest", name));
  }
  auto check_files = [&](const std::vector<ManifestFile>& files, const char* what) {
    for (const auto& f : files) {
      if (f.member.empty()) continue;
      const ManifestMember* m = manifest->Find(f.member);
      if (m == nullptr) {
        r.problems.push_back(fmt::format("{} '{}' names member '{}', which the manifest does not list", what,
                                         f.role, f.member));
      } else if (m->sha256 != f.sha256) {
        r.problems.push_back(fmt::format("{} '{}' was recorded with sha256 {}, but member '{}' has {}", what,
                                         f.role, f.sha256, f.member, m->sha256));
      }
    }
  };
  check_files(manifest->executables, "executable");
  check_files(manifest->libraries, "library");
  if (r.problems.empty()) CheckRunRecord(paths, *manifest, &r.problems);
  if (!r.problems.empty()) return fail();
  BundleOpener::Set(&bundle, temp, temp, std::move(*manifest), std::move(paths));
  return bundle;
}

}  // namespace tare::bundle
