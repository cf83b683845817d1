#include "campaign/arm_stage.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/core.h>

#include "base/files.h"
#include "base/sha256.h"
#include "model/kinds.h"

namespace tare::campaign {
namespace {

bool SameStat(const struct stat& a, const struct stat& b) {
  return a.st_ino == b.st_ino && a.st_dev == b.st_dev && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
         a.st_ctim.tv_sec == b.st_ctim.tv_sec && a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
}

std::string Describe(const std::string& arm) {
  return RoleOfArm(arm) == ArmRole::kNull ? "null-arm copy of base" : fmt::format("{} executable", arm);
}

}  // namespace

ArmStage::~ArmStage() {
  if (!keep_) {
    for (const auto& copy : copies_) unlink(copy.c_str());
  }
  if (lock_fd_ >= 0) close(lock_fd_);  // releases the flock
  if (keep_ || made_dirs_.empty()) return;
  // The directories this stage made (the store's own directory too) for a campaign that then never
  // ran — its store could not be opened, its preparation failed — are removed again, so nothing is
  // left where the user pointed (issue 27, item 19: a bin/.lock beside a text file given as --store).
  // Only when empty; what existed before is never touched.
  std::error_code ec;
  std::filesystem::remove(std::filesystem::path(made_dirs_.front()) / ".lock", ec);
  for (const auto& made : made_dirs_) std::filesystem::remove(made, ec);
}

StatusOr<std::unique_ptr<ArmStage>> ArmStage::Create(const std::string& requested_dir,
                                                     const std::vector<std::pair<std::string, std::string>>& arms) {
  std::error_code ec;
  const std::string dir = std::filesystem::absolute(requested_dir, ec).lexically_normal().string();
  std::vector<std::string> made;  // innermost first
  for (auto d = std::filesystem::path(dir); !d.empty() && !std::filesystem::exists(d, ec); d = d.parent_path()) {
    made.push_back(d.string());
    if (d == d.parent_path()) break;
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Status::InvalidArgument(fmt::format(
        "cannot create '{}' for the arms' copies: {}; choose another store with --store", dir, ec.message()));
  }
  const std::string lock_path = dir + "/.lock";
  int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::InvalidArgument(fmt::format("cannot open '{}': {}", lock_path, std::strerror(errno)));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    char holder[32] = {0};
    ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
    close(fd);
    return Status::Unavailable(
        fmt::format("another tare ab campaign (pid {}) is running from '{}'; wait for it to finish, or give "
                    "this one its own store with --store",
                    n > 0 ? std::string(holder, static_cast<size_t>(n)) : "unknown", dir));
  }
  std::string pid = std::to_string(getpid());
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // The pid is only a courtesy for the message above.
  }
  std::unique_ptr<ArmStage> stage(new ArmStage(fd));
  stage->made_dirs_ = std::move(made);

  for (const auto& [arm, source] : arms) {
    TARE_ASSIGN_OR_RETURN(std::string bytes, ReadFile(source));
    const std::string copy = dir + "/" + arm;
    // A fresh file renamed over the old one: a process still running the old copy keeps its own
    // inode, and the copy is never seen half-written.
    const std::string tmp = fmt::format("{}/.{}.{}", dir, arm, getpid());
    TARE_RETURN_IF_ERROR(WriteFileAtomic(tmp, bytes));
    if (chmod(tmp.c_str(), 0755) != 0 || rename(tmp.c_str(), copy.c_str()) != 0) {
      std::string err = std::strerror(errno);
      unlink(tmp.c_str());
      return Status::InvalidArgument(fmt::format("cannot install the {} copy '{}': {}", arm, copy, err));
    }
    stage->copies_.push_back(copy);
    const std::string copy_sha = Sha256Hex(bytes);
    TARE_ASSIGN_OR_RETURN(std::string copy_on_disk, Sha256File(copy));
    TARE_ASSIGN_OR_RETURN(std::string source_sha, Sha256File(source));
    if (copy_on_disk != copy_sha || source_sha != copy_sha) {
      return Status::FailedPrecondition(
          fmt::format("'{}' changed while tare copied it (a build still running?); wait for it to finish and "
                      "start again",
                      source));
    }
    stage->executables_.push_back({arm, source, copy, copy_sha});
    for (bool is_copy : {true, false}) {
      Watched w;
      w.arm = arm;
      w.file = is_copy ? copy : source;
      w.is_copy = is_copy;
      w.sha256 = copy_sha;
      w.present = stat(w.file.c_str(), &w.st) == 0;
      stage->watched_.push_back(w);
    }
  }
  return stage;
}

std::string ArmStage::PathOf(const std::string& arm) const {
  for (const auto& e : executables_) {
    if (e.arm == arm) return e.path;
  }
  return "";
}

Status ArmStage::CheckUnchanged() {
  for (auto& w : watched_) {
    struct stat now {};
    const bool present = stat(w.file.c_str(), &now) == 0;
    if (present && w.present && SameStat(now, w.st)) continue;
    std::string sha = "(missing)";
    if (present) {
      auto hashed = Sha256File(w.file);
      sha = hashed.ok() ? *hashed : "(unreadable)";
    }
    if (sha == w.sha256) {  // touched, same bytes
      w.st = now;
      w.present = true;
      continue;
    }
    return Status::FailedPrecondition(
        fmt::format("the {} '{}' changed during the campaign (sha256 {} when locked, {} now); the cohort is "
                    "stopped because its samples would mix two builds. Its samples stay in the store; run "
                    "the campaign again to measure the new build as a new cohort",
                    w.is_copy ? "running copy of the " + Describe(w.arm) : Describe(w.arm), w.file, ShortHash(w.sha256),
                    sha.size() == 64 ? ShortHash(sha) : sha));
  }
  return Status::Ok();
}

}  // namespace tare::campaign
