// Fuzzes the ELF reader behind executable fingerprints (src/env/executable_info.h): tare reads
// the headers, program headers, dynamic section and build-id note of every executable it is given,
// never running it, and a corrupt or crafted file must be reported as "not ELF: <reason>" (or
// read within its bounds), never crash the reader. The input is served as a regular file through
// a memfd, so the reader's own open/pread path is the one exercised.
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "env/executable_info.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("tare-elf-fuzz", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  TARE_FUZZ_CHECK(fd >= 0);
  TARE_FUZZ_CHECK(ftruncate(fd, 0) == 0);
  size_t written = 0;
  while (written < size) {
    ssize_t n = pwrite(fd, data + written, size - written, static_cast<off_t>(written));
    TARE_FUZZ_CHECK(n > 0);
    written += static_cast<size_t>(n);
  }
  auto info = tare::env::DescribeExecutable(path);
  TARE_FUZZ_CHECK(info.ok());
  TARE_FUZZ_CHECK(info->size_bytes == size);
  TARE_FUZZ_CHECK(info->is_elf == info->elf_error.empty());
  (void)info->Compiler();
  (void)tare::env::ExecutableKeys(*info, "exe.");
  return 0;
}
