#include "env/executable_info.h"

#include <elf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "base/json_read.h"
#include "base/hash_cache.h"
#include "env/printable.h"

namespace tare::env {
namespace {

// Bounds-checked positional reads from one open file. Every length and offset in an ELF file is
// untrusted: Read() refuses anything that does not lie wholly inside the file.
class FileReader {
 public:
  FileReader(int fd, uint64_t size) : fd_(fd), size_(size) {}
  uint64_t size() const { return size_; }

  bool Read(uint64_t offset, uint64_t length, void* out) const {
    if (offset > size_ || length > size_ - offset) return false;
    auto* p = static_cast<char*>(out);
    while (length > 0) {
      ssize_t n = pread(fd_, p, length, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
      offset += static_cast<uint64_t>(n);
      length -= static_cast<uint64_t>(n);
    }
    return true;
  }

  std::optional<std::string> ReadBytes(uint64_t offset, uint64_t length) const {
    std::string out(length, '\0');
    if (!Read(offset, length, out.data())) return std::nullopt;
    return out;
  }

  // A NUL-terminated string at `offset`, read only within [offset, limit) and at most 4096 bytes.
  std::optional<std::string> ReadString(uint64_t offset, uint64_t limit) const {
    if (limit > size_) limit = size_;
    if (offset >= limit) return std::nullopt;
    uint64_t length = std::min<uint64_t>(limit - offset, 4096);
    auto bytes = ReadBytes(offset, length);
    if (!bytes) return std::nullopt;
    size_t nul = bytes->find('\0');
    if (nul == std::string::npos) return std::nullopt;
    return bytes->substr(0, nul);
  }

 private:
  int fd_;
  uint64_t size_;
};

std::string ToHex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

// Walks the notes in [offset, offset + size) and returns the GNU build id, if any. Note headers
// are three 4-byte words in both ELF classes; name and descriptor are padded to `align` (4, or 8
// for segments such as .note.gnu.property that declare 8).
std::string FindBuildId(const FileReader& file, uint64_t offset, uint64_t size, uint64_t align) {
  if (align != 8) align = 4;
  auto pad = [align](uint64_t n) { return (n + align - 1) / align * align; };
  uint64_t end = offset + size;
  if (end < offset || end > file.size()) return "";
  for (uint64_t pos = offset; pos + sizeof(Elf64_Nhdr) <= end;) {
    Elf64_Nhdr note;
    if (!file.Read(pos, sizeof note, &note)) return "";
    uint64_t name_at = pos + sizeof note;
    uint64_t desc_at = name_at + pad(note.n_namesz);
    uint64_t next = desc_at + pad(note.n_descsz);
    if (desc_at > end || next > end || next <= pos) return "";
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && note.n_descsz > 0 && note.n_descsz <= 64) {
      auto name = file.ReadBytes(name_at, 4);
      if (name && std::memcmp(name->data(), "GNU\0", 4) == 0) {
        auto desc = file.ReadBytes(desc_at, note.n_descsz);
        if (desc) return ToHex(*desc);
      }
    }
    pos = next;
  }
  return "";
}

std::string TypeName(uint16_t type, bool has_interp) {
  switch (type) {
    case ET_EXEC:
      return "executable";
    case ET_DYN:
      return has_interp ? "position-independent executable" : "shared object";
    case ET_REL:
      return "relocatable object";
    case ET_CORE:
      return "core dump";
  }
  return fmt::format("e_type {}", type);
}

std::string MachineName(uint16_t machine) {
  switch (machine) {
    case EM_X86_64:
      return "x86-64";
    case EM_AARCH64:
      return "AArch64";
    case EM_RISCV:
      return "RISC-V";
    case EM_PPC64:
      return "PowerPC64";
    case EM_S390:
      return "S/390";
  }
  return fmt::format("e_machine {}", machine);
}

// "not an ELF executable: ..." for files that are not 64-bit little-endian ELF.
std::string NotElfReason(const std::string& head) {
  if (head.size() >= 2 && head[0] == '#' && head[1] == '!') {
    std::string line = head.substr(2, head.find('\n') == std::string::npos ? std::string::npos : head.find('\n') - 2);
    size_t b = line.find_first_not_of(" \t");
    size_t e = line.find_last_not_of(" \t\r");
    line = b == std::string::npos ? "" : line.substr(b, e - b + 1);
    return line.empty() ? "not an ELF executable: a script with an empty #! line"
                        : "not an ELF executable: a script for " + Printable(line);
  }
  if (head.size() < SELFMAG || std::memcmp(head.data(), ELFMAG, SELFMAG) != 0) {
    return "not an ELF executable: no ELF magic number (neither a binary nor a #! script)";
  }
  if (head.size() < EI_NIDENT) return "not an ELF executable: truncated ELF identification";
  if (head[EI_CLASS] == ELFCLASS32) {
    return "not an ELF executable tare can read: 32-bit ELF (ELFCLASS32); tare reads 64-bit "
           "little-endian ELF";
  }
  if (head[EI_CLASS] != ELFCLASS64) {
    return fmt::format("not an ELF executable tare can read: unknown ELF class {}", static_cast<int>(head[EI_CLASS]));
  }
  if (head[EI_DATA] != ELFDATA2LSB) {
    return "not an ELF executable tare can read: big-endian ELF; tare reads 64-bit little-endian ELF";
  }
  return "";
}

struct Segments {
  std::vector<Elf64_Phdr> all;
  // File offset of a virtual address, through the PT_LOAD segment that maps it.
  std::optional<uint64_t> Offset(uint64_t vaddr) const {
    for (const auto& p : all) {
      if (p.p_type == PT_LOAD && vaddr >= p.p_vaddr && vaddr - p.p_vaddr < p.p_filesz) {
        return p.p_offset + (vaddr - p.p_vaddr);
      }
    }
    return std::nullopt;
  }
};

void ReadDynamic(const FileReader& file, const Segments& segments, const Elf64_Phdr& dynamic, ExecutableInfo* info) {
  std::vector<uint64_t> needed_offsets;
  std::optional<uint64_t> runpath_offset, rpath_offset;
  uint64_t strtab_vaddr = 0;
  uint64_t strtab_size = 0;
  uint64_t count = dynamic.p_filesz / sizeof(Elf64_Dyn);
  for (uint64_t i = 0; i < count && i < 65536; ++i) {
    Elf64_Dyn d;
    if (!file.Read(dynamic.p_offset + i * sizeof d, sizeof d, &d) || d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) needed_offsets.push_back(d.d_un.d_val);
    if (d.d_tag == DT_RUNPATH) runpath_offset = d.d_un.d_val;
    if (d.d_tag == DT_RPATH) rpath_offset = d.d_un.d_val;
    if (d.d_tag == DT_STRTAB) strtab_vaddr = d.d_un.d_ptr;
    if (d.d_tag == DT_STRSZ) strtab_size = d.d_un.d_val;
  }
  auto strtab = segments.Offset(strtab_vaddr);
  if (!strtab) return;
  for (uint64_t offset : needed_offsets) {
    if (strtab_size != 0 && offset >= strtab_size) continue;
    uint64_t limit = strtab_size != 0 ? *strtab + strtab_size : file.size();
    if (auto name = file.ReadString(*strtab + offset, limit)) info->needed.push_back(Printable(*name));
  }
  // The loader ignores DT_RPATH when DT_RUNPATH is present.
  if (auto offset = runpath_offset ? runpath_offset : rpath_offset;
      offset && (strtab_size == 0 || *offset < strtab_size)) {
    uint64_t limit = strtab_size != 0 ? *strtab + strtab_size : file.size();
    if (auto path = file.ReadString(*strtab + *offset, limit)) {
      std::string entries = Printable(*path);
      for (size_t start = 0; start <= entries.size();) {
        size_t colon = entries.find(':', start);
        if (colon == std::string::npos) colon = entries.size();
        if (colon > start) info->runpath.push_back(entries.substr(start, colon - start));
        start = colon + 1;
      }
    }
  }
}

// Fills the ELF facts; returns "" or the reason the file could not be read as ELF.
std::string ReadElf(const FileReader& file, ExecutableInfo* info) {
  Elf64_Ehdr eh;
  if (!file.Read(0, sizeof eh, &eh)) return "malformed ELF: the file is shorter than an ELF header";
  Segments segments;
  if (eh.e_phnum > 0) {
    if (eh.e_phentsize != sizeof(Elf64_Phdr)) return "malformed ELF: unexpected program header size";
    segments.all.resize(eh.e_phnum);
    if (!file.Read(eh.e_phoff, uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr), segments.all.data())) {
      return "malformed ELF: the program header table lies past the end of the file";
    }
  }
  for (const auto& p : segments.all) {
    if (p.p_type == PT_INTERP) {
      auto interp = file.ReadString(p.p_offset, p.p_offset + p.p_filesz);
      if (interp) info->interpreter = Printable(*interp);
    } else if (p.p_type == PT_NOTE && info->build_id.empty()) {
      info->build_id = FindBuildId(file, p.p_offset, p.p_filesz, p.p_align);
    } else if (p.p_type == PT_DYNAMIC) {
      ReadDynamic(file, segments, p, info);
    }
  }
  info->elf_type = TypeName(eh.e_type, !info->interpreter.empty());
  info->machine = MachineName(eh.e_machine);

  // Sections: .comment, .symtab and .debug_info are not loaded, so only the section table has
  // them. Extended numbering: with e_shnum == 0 the count is in section 0's sh_size, and with
  // e_shstrndx == SHN_XINDEX the string table index is in its sh_link.
  info->stripped = true;
  if (eh.e_shoff == 0) return "";
  if (eh.e_shentsize != sizeof(Elf64_Shdr)) return "malformed ELF: unexpected section header size";
  Elf64_Shdr first;
  if (!file.Read(eh.e_shoff, sizeof first, &first)) {
    return "malformed ELF: the section header table lies past the end of the file";
  }
  uint64_t section_count = eh.e_shnum != 0 ? eh.e_shnum : first.sh_size;
  uint64_t names_index = eh.e_shstrndx != SHN_XINDEX ? eh.e_shstrndx : first.sh_link;
  if (section_count > file.size() / sizeof(Elf64_Shdr)) {
    return "malformed ELF: more sections than the file can hold";
  }
  std::vector<Elf64_Shdr> sections(section_count);
  if (!file.Read(eh.e_shoff, section_count * sizeof(Elf64_Shdr), sections.data())) {
    return "malformed ELF: the section header table lies past the end of the file";
  }
  if (names_index >= section_count) return "";  // no section names: nothing more to learn
  const Elf64_Shdr& names = sections[names_index];
  for (const auto& s : sections) {
    if (s.sh_type == SHT_NOTE && info->build_id.empty()) {
      info->build_id = FindBuildId(file, s.sh_offset, s.sh_size, s.sh_addralign);
    }
    if (s.sh_name >= names.sh_size) continue;
    auto name = file.ReadString(names.sh_offset + s.sh_name, names.sh_offset + names.sh_size);
    if (!name) continue;
    if (*name == ".symtab") info->stripped = false;
    if (*name == ".debug_info") info->has_debug_info = true;
    if (*name == ".comment" && s.sh_type != SHT_NOBITS && s.sh_size <= (1u << 20)) {
      auto text = file.ReadBytes(s.sh_offset, s.sh_size);
      if (!text) continue;
      size_t pos = 0;
      while (pos < text->size()) {
        size_t nul = text->find('\0', pos);
        if (nul == std::string::npos) nul = text->size();
        std::string entry = Printable(text->substr(pos, nul - pos));
        pos = nul + 1;
        if (entry.empty()) continue;
        bool seen = false;
        for (const auto& c : info->compilers) seen = seen || c == entry;
        if (!seen) info->compilers.push_back(entry);
      }
    }
  }
  return "";
}

}  // namespace

std::string ExecutableInfo::Compiler() const {
  std::string out;
  for (const auto& c : compilers) {
    if (!out.empty()) out += "; ";
    out += c;
  }
  return out;
}

StatusOr<ExecutableInfo> DescribeExecutable(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    std::string msg = fmt::format("cannot read executable '{}': {}", path, std::strerror(e));
    return e == ENOENT ? Status::NotFound(msg + "; check the path")
                       : Status::FailedPrecondition(msg + "; check its permissions");
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status::FailedPrecondition(fmt::format("'{}' is not a regular file; give the path of a program", path));
  }
  ExecutableInfo info;
  info.path = path;
  info.size_bytes = static_cast<uint64_t>(st.st_size);
  FileReader file(fd, info.size_bytes);
  std::string head = file.ReadBytes(0, std::min<uint64_t>(info.size_bytes, 256)).value_or("");
  info.elf_error = NotElfReason(head);
  if (info.elf_error.empty()) info.elf_error = ReadElf(file, &info);
  info.is_elf = info.elf_error.empty();
  close(fd);

  // Every run describes its executable: an unchanged one is not read again (base/hash_cache.h).
  auto sha = Sha256FileRemembered(path);
  if (!sha.ok()) return sha.status();
  info.sha256 = *sha;
  return info;
}

nlohmann::json ExecutableInfoToJson(const ExecutableInfo& info) {
  // Printable(): a file name need not be UTF-8, and dump() throws on anything else.
  return {{"path", Printable(info.path)},
          {"sha256", info.sha256},
          {"size_bytes", info.size_bytes},
          {"is_elf", info.is_elf},
          {"elf_error", info.elf_error},
          {"elf_type", info.elf_type},
          {"machine", info.machine},
          {"build_id", info.build_id},
          {"compilers", info.compilers},
          {"stripped", info.stripped},
          {"has_debug_info", info.has_debug_info},
          {"interpreter", info.interpreter},
          {"needed", info.needed},
          {"runpath", info.runpath}};
}

StatusOr<ExecutableInfo> ExecutableInfoFromJson(const nlohmann::json& j) {
  using Strings = std::vector<std::string>;
  auto info = ReadJson<ExecutableInfo>(j, "executable JSON", [](const nlohmann::json& j) {
    ExecutableInfo info;
    info.path = JsonAt<std::string>(j, "path");
    info.sha256 = JsonAt<std::string>(j, "sha256");
    info.size_bytes = JsonAt<uint64_t>(j, "size_bytes");
    info.is_elf = JsonAt<bool>(j, "is_elf");
    info.elf_error = JsonAt<std::string>(j, "elf_error");
    info.elf_type = JsonAt<std::string>(j, "elf_type");
    info.machine = JsonAt<std::string>(j, "machine");
    info.build_id = JsonAt<std::string>(j, "build_id");
    info.compilers = JsonAt<Strings>(j, "compilers");
    info.stripped = JsonAt<bool>(j, "stripped");
    info.has_debug_info = JsonAt<bool>(j, "has_debug_info");
    info.interpreter = JsonAt<std::string>(j, "interpreter");
    info.needed = JsonAt<Strings>(j, "needed");
    info.runpath = JsonAtOr<Strings>(j, "runpath", {});
    return info;
  });
  if (!info.ok()) return info.status().WithMore("the stored run may be damaged");
  return info;
}

std::vector<FingerprintKey> ExecutableKeys(const ExecutableInfo& info, const std::string& prefix) {
  auto or_none = [](const std::string& v) { return v.empty() ? std::string("none") : v; };
  return {{prefix + ".sha256", info.sha256, false},
          {prefix + ".build_id", or_none(info.build_id), false},
          {prefix + ".compiler", info.is_elf ? or_none(info.Compiler()) : "not ELF", true}};
}

}  // namespace tare::env
