#include "target/target_kind.h"

#include "target/tare_protocol.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <elf.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace tare::target {
namespace {

// The parts of an ELF file the kind is read from: string tables (.dynstr and .strtab, the symbol
// names) and allocated data that is not code (.rodata: the protocol marker, Google Benchmark's flag
// names). Not code, not debug information, not what follows the last section: most of a binary
// built with -g is debug information, and scanning all of it took ~60% of `tare run`'s start on a
// 40 MB executable (bench/README.md). nullopt: the section headers cannot be read (none, out of
// the file, another byte order than this host's), and the whole file is scanned as before.
template <typename Ehdr, typename Shdr>
std::optional<std::vector<std::string_view>> ScannedSections(std::string_view bytes) {
  Ehdr eh;
  if (bytes.size() < sizeof eh) return std::nullopt;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  const unsigned char host_order = std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
  if (eh.e_ident[EI_DATA] != host_order || eh.e_shoff == 0 || eh.e_shnum == 0 || eh.e_shentsize != sizeof(Shdr) ||
      eh.e_shoff > bytes.size() || eh.e_shnum > (bytes.size() - eh.e_shoff) / sizeof(Shdr)) {
    return std::nullopt;
  }
  std::vector<std::string_view> out;
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Shdr sh;
    std::memcpy(&sh, bytes.data() + eh.e_shoff + i * sizeof(Shdr), sizeof sh);
    const bool strings = sh.sh_type == SHT_STRTAB;
    const bool data =
        sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) != 0 && (sh.sh_flags & SHF_EXECINSTR) == 0;
    if (!strings && !data) continue;
    if (sh.sh_offset > bytes.size() || sh.sh_size > bytes.size() - sh.sh_offset) return std::nullopt;
    out.push_back(bytes.substr(sh.sh_offset, sh.sh_size));
  }
  return out;
}

bool AnyHas(const std::vector<std::string_view>& parts, std::string_view needle) {
  for (std::string_view p : parts) {
    if (p.find(needle) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

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
  if (bytes.substr(0, 4) ==
      "\x7f"
      "ELF") {
    std::optional<std::vector<std::string_view>> parts;
    if (bytes.size() > EI_CLASS && bytes[EI_CLASS] == ELFCLASS64)
      parts = ScannedSections<Elf64_Ehdr, Elf64_Shdr>(bytes);
    if (bytes.size() > EI_CLASS && bytes[EI_CLASS] == ELFCLASS32)
      parts = ScannedSections<Elf32_Ehdr, Elf32_Shdr>(bytes);
    if (!parts) parts = std::vector<std::string_view>{bytes};
    // The marker is checked first: gbench_compat binaries also carry Google Benchmark's names.
    if (std::any_of(parts->begin(), parts->end(), protocol::HasProtocolMarker)) {
      kind = TargetKind::kTare;
    } else if (AnyHas(*parts, "_ZN9benchmark") || AnyHas(*parts, "benchmark_list_tests")) {
      kind = TargetKind::kGbench;
    }
  }
  munmap(map, static_cast<size_t>(st.st_size));
  return kind;
}

}  // namespace tare::target
