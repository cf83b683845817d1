// Fuzzes the bundle reader (src/bundle/archive.h, opened_bundle.h): the input is the bytes of a
// would-be bundle, extracted into a fresh private directory with small limits. A bundle comes
// from someone else's machine; whatever it holds, nothing may be written outside that directory,
// every extracted name must be one the rules accept, and opening must never crash.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/files.h"
#include "bundle/archive.h"
#include "bundle/opened_bundle.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto root = tare::MakeTempDir("tare-fuzz-bundle");
  if (!root.ok()) return 0;
  const std::string archive = *root + "/in.tar.gz";
  const std::string dest = *root + "/x";
  {
    std::ofstream out(archive, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::filesystem::create_directory(dest);
  tare::bundle::ArchiveLimits limits;
  limits.max_member_bytes = 1 << 20;
  limits.max_total_bytes = 4 << 20;
  limits.max_members = 200;
  auto members = tare::bundle::ExtractArchive(archive, dest, limits);
  if (members.ok()) {
    for (const auto& m : *members) {
      TARE_FUZZ_CHECK(tare::bundle::MemberNameProblem(m.name).empty());
      TARE_FUZZ_CHECK(m.path == dest + "/" + m.name);
      TARE_FUZZ_CHECK(m.size <= limits.max_member_bytes);
    }
  }
  for (const auto& e : std::filesystem::recursive_directory_iterator(*root)) {
    TARE_FUZZ_CHECK(!e.is_symlink());
  }
  { auto opened = tare::bundle::OpenBundle(archive); }
  tare::RemoveTree(*root);
  return 0;
}
