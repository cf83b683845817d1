// ArmStage: the copies every arm runs from, and the watch that stops a campaign when one changes.
//
// Why copies: the path of an executable and the size of its environment move the initial stack
// (argv, envp and auxv sit above it), which shifts the alignment of everything the program puts
// there and measurably changes timings (Mytkowicz et al., "Producing wrong data without doing
// anything obviously wrong!", ASPLOS 2009). So each arm runs from <dir>/<arm>, where every arm
// name has four characters (base, head, hd02..., null): all paths have the same length, argv and
// the environment are the same for every arm, and the null arm is a second copy of base that
// differs from it only by luck.
//
// The stage holds an exclusive flock on <dir>/.lock for its lifetime: two campaigns sharing one
// store directory would otherwise overwrite each other's copies. CheckUnchanged() is cheap
// (stat of every copy and source; sha256 only of files whose size, mtime, ctime or inode moved), so
// the runner calls it between blocks.
//
// Not thread-safe.
#pragma once

#include <sys/stat.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "campaign/lock.h"

namespace tare::campaign {

class ArmStage {
 public:
  // `arms`: (arm name, source file) in arm order. Creates `dir`, takes the lock (Unavailable
  // naming the holder when another campaign has it), copies each source to dir/<arm> (mode 0755)
  // and hashes the copy and the source (they must agree: a source rewritten while being copied is
  // an error). `dir` is made absolute: the arms may run in another working directory (--cwd).
  // The copies are removed again when the stage is destroyed, unless Keep() was called: a usage
  // error found after staging leaves nothing behind — nor the directories Create made for them
  // (with the lock file), when they are empty.
  static StatusOr<std::unique_ptr<ArmStage>> Create(const std::string& dir,
                                                    const std::vector<std::pair<std::string, std::string>>& arms);
  ~ArmStage();
  ArmStage(const ArmStage&) = delete;
  ArmStage& operator=(const ArmStage&) = delete;

  const std::vector<LockedExecutable>& executables() const { return executables_; }
  // The copy an arm runs from.
  std::string PathOf(const std::string& arm) const;

  // FailedPrecondition when a copy or its source no longer has the sha256 it had when staged:
  // "the head executable '/src/new/bench' changed during the campaign (sha256 1a2b... when locked,
  // 3c4d... now)", with what to do.
  Status CheckUnchanged();

  // The campaign ran: keep the copies (the ledger and the lock name them).
  void Keep() { keep_ = true; }

 private:
  struct Watched {
    std::string arm;
    std::string file;  // a copy or a source
    bool is_copy = false;
    std::string sha256;  // expected
    struct stat st {};
    bool present = false;
  };
  explicit ArmStage(int lock_fd) : lock_fd_(lock_fd) {}
  int lock_fd_;
  bool keep_ = false;
  std::vector<std::string> copies_;     // made by this stage, removed unless kept
  std::vector<std::string> made_dirs_;  // directories Create made (innermost first), removed unless kept
  std::vector<LockedExecutable> executables_;
  std::vector<Watched> watched_;
};

}  // namespace tare::campaign
