// The spawn helper's descriptors (spawn_helper_main.cc): the files a child writes, opened by the
// helper and kept open from one sample to the next (step 2 of the helper's comment), and /dev/null.
// Part of the tare-spawn-helper executable only; single-threaded, like the helper.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace tare::proc::helper {

// Helper-side descriptors are moved at or above this number, so the child's dup2 onto 0, 1, 2 and
// the protocol's result fd can never overwrite a source it has yet to duplicate.
inline constexpr int kFirstHelperFd = 100;

// `fd` moved to kFirstHelperFd or above (close-on-exec); a negative fd is returned as it is.
int MoveHigh(int fd);

// /dev/null opened once for reading (flags O_RDONLY) or writing, kept for every sample; -1 on error.
int DevNull(int flags);

// A file the child writes (stdout, stderr, a result file), opened by the helper and reused by the
// next sample that names the same path. Reuse is checked against the path (same device and inode):
// tare may delete a result file between samples, and then it is created afresh.
class OutputFile {
 public:
  // Returns an fd whose file is empty and whose offset is 0, or -1 with errno set.
  int Prepare(const std::string& want);
  // Size of what the child left in the file; -1 if unknown.
  int64_t Size() const;
  void Close();

 private:
  std::string path_;
  int fd_ = -1;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
};

}  // namespace tare::proc::helper
