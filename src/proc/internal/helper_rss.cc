#include "proc/internal/helper_rss.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "proc/internal/helper_files.h"

namespace tare::proc::helper {

// Shed pages fault back in at a cost (~0.3 ms a sample on the VM of bench/README.md), and the
// helper holds ~0.5 MB between samples (no fmt, no iostreams: its text is paged in where it runs)
// against `/bin/true`'s ~0.9-1.1 MB, so most programs skip it: the child sheds unless this
// program's last peak was above what the helper holds now, plus the slack, plus kShedMarginKib for
// the pages the child touches before its statm reading (its code paged in 64 KiB at a time). A
// wrong guess costs one sample's peak RSS, never a wrong one: every sample is checked against what
// exec folded in, and the next sample of that program sheds.
constexpr int64_t kShedMarginKib = 192;

void SharedRss::SetUp() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return;  // a sanitizer's runtime does not expect a vfork child running instrumented code
#else
  if (const char* e = std::getenv("TARE_SPAWN_FORK"); e != nullptr && std::strcmp(e, "1") == 0) return;
  int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  std::string smaps;
  char buf[8192];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) smaps.append(buf, static_cast<size_t>(n));
  close(fd);
  // Never written: smaps "Anonymous: 0 kB" (relocated read-only data, written before it was
  // protected, has anonymous pages and would lose its relocations).
  uintptr_t start = 0, end = 0;
  bool candidate = false;
  size_t pos = 0;
  while (pos < smaps.size()) {
    size_t eol = smaps.find('\n', pos);
    if (eol == std::string::npos) eol = smaps.size();
    const std::string line = smaps.substr(pos, eol - pos);
    pos = eol + 1;
    unsigned long a = 0, b = 0;
    char perms[8] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &a, &b, perms) == 3 && line.find(' ') < line.find(':')) {
      start = a;
      end = b;
      // A file mapping: its path starts with '/'; [vdso] and anonymous mappings do not.
      candidate = perms[0] == 'r' && perms[1] != 'w' && perms[3] == 'p' && line.find(" /") != std::string::npos;
    } else if (candidate && line.rfind("Anonymous:", 0) == 0) {
      if (std::strtol(line.c_str() + 10, nullptr, 10) == 0) {
        clean_file_maps_.emplace_back(reinterpret_cast<void*>(start), end - start);
      }
      candidate = false;
    }
  }
  clear_refs_ = MoveHigh(open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC));
  statm_ = MoveHigh(open("/proc/self/statm", O_RDONLY | O_CLOEXEC));
  page_kib_ = sysconf(_SC_PAGESIZE) / 1024;
  on_ = clear_refs_ >= 0 && statm_ >= 0 && !clean_file_maps_.empty() && page_kib_ > 0;
#endif
}

int64_t SharedRss::ResidentPages() const {
  char buf[128];
  ssize_t n = pread(statm_, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char* p = buf;
  std::strtol(p, &p, 10);                  // size
  long resident = std::strtol(p, &p, 10);  // resident pages
  return resident > 0 ? resident : -1;
}

int64_t SharedRss::PagesFoldedAtExec(bool shed) const {
  if (shed) {
    for (const auto& [start, len] : clean_file_maps_) madvise(start, len, MADV_DONTNEED);
  }
  if (pwrite(clear_refs_, "5", 1, 0) != 1) return -1;
  return ResidentPages();
}

bool SharedRss::ShouldShed(const std::string& program) const {
  auto it = last_peak_kib_.find(program);
  if (it == last_peak_kib_.end()) return true;
  const int64_t resident_kib = ResidentPages() * page_kib_;
  return resident_kib <= 0 || it->second <= resident_kib + kSharedRssSlackKib + kShedMarginKib;
}

}  // namespace tare::proc::helper
