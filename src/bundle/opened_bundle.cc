#include "bundle/opened_bundle.h"

#include <fmt/format.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <optional>
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
      problems->push_back(
          fmt::format("executable '{}' (member '{}') is not one the run recorded in run.json", f.role, f.member));
    } else if (r->second != f.sha256) {
      problems->push_back(fmt::format("executable '{}' (member '{}') has sha256 {}, but run.json recorded {} for it",
                                      f.role, f.member, f.sha256, r->second));
    }
  }
}

// manifest.json and manifest.sha256 come first (the writer puts them there); a manifest larger than
// this is not one tare wrote.
constexpr int64_t kMaxManifestBytes = int64_t{64} << 20;

// The extraction gate (archive.h MemberGate) of a bundle: nothing is written that the manifest
// does not list at that size (issue 27, item 14: a 1 GiB member was written in full before it was
// found "tampered", an unlisted one likewise). The manifest is read from `dest` when the first
// member after it comes; if it is not first, or cannot be read, nothing after it is written.
class ManifestGate {
 public:
  explicit ManifestGate(std::string dest) : dest_(std::move(dest)) {}

  std::string operator()(const std::string& name, int64_t declared) {
    if (declared < 0) return "its header declares no size";
    if (name == kManifestMember) {
      seen_manifest_ = true;
      return declared > kMaxManifestBytes
                 ? fmt::format("{} bytes, more than the {} a manifest may hold", declared, kMaxManifestBytes)
                 : "";
    }
    if (name == kManifestHashMember) return declared > 1024 ? fmt::format("{} bytes, not a sha256", declared) : "";
    if (!seen_manifest_) return fmt::format("it comes before '{}', which lists what may be extracted", kManifestMember);
    if (!sizes_) Load();
    if (!manifest_problem_.empty()) return manifest_problem_;
    auto it = sizes_->find(name);
    if (it == sizes_->end()) return "not in the manifest";
    if (it->second != declared) return fmt::format("{} bytes, the manifest says {}", declared, it->second);
    return "";
  }

 private:
  void Load() {
    sizes_.emplace();
    auto text = ReadFile(dest_ + "/" + kManifestMember, kMaxManifestBytes);
    if (!text.ok()) {
      manifest_problem_ = fmt::format("'{}' cannot be read", kManifestMember);
      return;
    }
    auto j = ParseJson(*text, kManifestMember);
    auto m = j.ok() ? ManifestFromJson(*j) : StatusOr<Manifest>(j.status());
    if (!m.ok()) {
      manifest_problem_ = fmt::format("'{}' is not a manifest tare can read", kManifestMember);
      return;
    }
    for (const auto& member : m->members) (*sizes_)[member.name] = member.size;
  }

  std::string dest_;
  bool seen_manifest_ = false;
  std::optional<std::map<std::string, int64_t>> sizes_;
  std::string manifest_problem_;
};

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
  // The members go to a directory of their own: the work directory also holds its owner's lock.
  const std::string dir = temp + "/members";
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return Status::FailedPrecondition(fmt::format("cannot create '{}': {}", dir, std::strerror(errno)));
  }
  auto extracted = ExtractArchive(path, dir, {}, ManifestGate(dir));
  if (!extracted.ok()) {
    r.problems.push_back(extracted.status().message());
    return extracted.status();
  }
  std::map<std::string, std::string> paths;
  std::map<std::string, int64_t> sizes;
  std::map<std::string, std::string> refused;  // member -> why nothing of it was written
  for (const auto& m : *extracted) {
    if (!m.refused.empty()) {
      refused[m.name] = m.refused;
      continue;
    }
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

  if (paths.count(kManifestMember) == 0 || refused.count(kManifestMember) > 0) {
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
    if (auto why = refused.find(m.name); why != refused.end()) {
      r.problems.push_back(fmt::format("member '{}' is tampered: {} (refused before extraction)", m.name, why->second));
      continue;
    }
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
  for (const auto& [name, why] : refused) {
    if (listed.count(name) > 0) continue;
    r.problems.push_back(fmt::format("member '{}' is {} (refused before extraction)", name,
                                     why == "not in the manifest" ? why : "refused: " + why));
  }
  auto check_files = [&](const std::vector<ManifestFile>& files, const char* what) {
    for (const auto& f : files) {
      if (f.member.empty()) continue;
      const ManifestMember* m = manifest->Find(f.member);
      if (m == nullptr) {
        r.problems.push_back(
            fmt::format("{} '{}' names member '{}', which the manifest does not list", what, f.role, f.member));
      } else if (m->sha256 != f.sha256) {
        r.problems.push_back(fmt::format("{} '{}' was recorded with sha256 {}, but member '{}' has {}", what, f.role,
                                         f.sha256, f.member, m->sha256));
      }
    }
  };
  check_files(manifest->executables, "executable");
  check_files(manifest->libraries, "library");
  if (r.problems.empty()) CheckRunRecord(paths, *manifest, &r.problems);
  if (!r.problems.empty()) return fail();
  BundleOpener::Set(&bundle, temp, dir, std::move(*manifest), std::move(paths));
  return bundle;
}

}  // namespace tare::bundle
