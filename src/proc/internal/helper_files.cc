#include "proc/internal/helper_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace tare::proc::helper {

int MoveHigh(int fd) {
  if (fd < 0 || fd >= kFirstHelperFd) return fd;
  int high = fcntl(fd, F_DUPFD_CLOEXEC, kFirstHelperFd);
  close(fd);
  return high;
}

int DevNull(int flags) {
  static int read_fd = -1, write_fd = -1;
  int& fd = flags == O_RDONLY ? read_fd : write_fd;
  if (fd < 0) fd = MoveHigh(open("/dev/null", flags | O_CLOEXEC));
  return fd;
}

int OutputFile::Prepare(const std::string& want) {
  struct stat st;
  if (fd_ >= 0 && want == path_ && stat(want.c_str(), &st) == 0 && st.st_dev == dev_ && st.st_ino == ino_) {
    if ((st.st_size == 0 || ftruncate(fd_, 0) == 0) && lseek(fd_, 0, SEEK_SET) == 0) return fd_;
  }
  Close();
  int opened = MoveHigh(open(want.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (opened < 0) return -1;
  if (fstat(opened, &st) != 0) {
    int saved = errno;
    close(opened);
    errno = saved;
    return -1;
  }
  fd_ = opened;
  path_ = want;
  dev_ = st.st_dev;
  ino_ = st.st_ino;
  return fd_;
}

int64_t OutputFile::Size() const {
  struct stat st;
  return fd_ >= 0 && fstat(fd_, &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
}

void OutputFile::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  path_.clear();
}

}  // namespace tare::proc::helper
