#include "target/target_kind.h"

#include "target/tare_protocol.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

namespace tare::target {

StatusOr<TargetKind> DetectTargetKind(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // a FIFO must not hang
  if (fd < 0) {
    return Status::NotFound(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < 4) {
    close(fd);
    return TargetKind::kCommand;
  }
  void* map = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    return Status::NotFound(fmt::format("cannot map '{}': {}", path, std::strerror(errno)));
  }
  std::string_view bytes(static_cast<const char*>(map), static_cast<size_t>(st.st_size));
  TargetKind kind = TargetKind::kCommand;
  if (bytes.substr(0, 4) == "\x7f" "ELF") {
    // The marker is checked first: gbench_compat binaries also carry Google Benchmark's names.
    if (protocol::HasProtocolMarker(bytes)) {
      kind = TargetKind::kTare;
    } else if (bytes.find("_ZN9benchmark") != std::string_view::npos ||
               bytes.find("benchmark_list_tests") != std::string_view::npos) {
      kind = TargetKind::kGbench;
    }
  }
  munmap(map, static_cast<size_t>(st.st_size));
  return kind;
}

}  // namespace tare::target
