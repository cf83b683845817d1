#include "env/executable_info.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>

#include "base/files.h"
#include "base/sha256.h"

namespace tare::env {
namespace {

// binutils' readelf is the independent reading of the same facts (tests skip those comparisons
// when it is missing).
bool HaveReadelf() { return ResolveExecutable("readelf").ok(); }

// Lines of `readelf <flags> <path>` that contain `marker`, each with the text after the marker.
std::vector<std::string> Readelf(const std::string& flags, const std::string& path, const std::string& marker) {
  std::string cmd = "readelf " + flags + " '" + path + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::vector<std::string> found;
  if (!pipe) return found;
  char line[4096];
  while (fgets(line, sizeof line, pipe.get())) {
    std::string s = line;
    size_t at = s.find(marker);
    if (at == std::string::npos) continue;
    std::string rest = s.substr(at + marker.size());
    while (!rest.empty() && (rest.back() == '\n' || rest.back() == ' ')) rest.pop_back();
    found.push_back(rest);
  }
  return found;
}

std::string ReadelfBuildId(const std::string& path) {
  auto ids = Readelf("-n", path, "Build ID: ");
  return ids.empty() ? "" : ids[0];
}

// "0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]" -> "libc.so.6"
std::vector<std::string> ReadelfNeeded(const std::string& path) {
  std::vector<std::string> names;
  for (auto& s : Readelf("-d", path, "Shared library: [")) names.push_back(s.substr(0, s.find(']')));
  return names;
}

// "  [     0]  GCC: (Debian 12.2.0-14) 12.2.0" -> distinct strings in order
std::vector<std::string> ReadelfComments(const std::string& path) {
  std::vector<std::string> out;
  for (auto& s : Readelf("-p .comment", path, "]  ")) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

class ExecutableInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("tare-elf-test");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
  }
  void TearDown() override { RemoveTree(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = dir_ + "/" + name;
    EXPECT_TRUE(WriteFileAtomic(path, bytes).ok());
    return path;
  }
  std::string dir_;
};

TEST_F(ExecutableInfoTest, FixtureWithKnownBuildId) {
  auto info = DescribeExecutable(TARE_ENV_FIXTURE);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_TRUE(info->is_elf) << info->elf_error;
  EXPECT_EQ(info->elf_error, "");
  EXPECT_EQ(info->build_id, TARE_ENV_FIXTURE_BUILD_ID);
  EXPECT_EQ(info->sha256, Sha256File(TARE_ENV_FIXTURE).value());
  EXPECT_EQ(info->size_bytes, std::filesystem::file_size(TARE_ENV_FIXTURE));
  EXPECT_FALSE(info->stripped);
  EXPECT_TRUE(info->has_debug_info);  // RelWithDebInfo: -g
  EXPECT_EQ(info->machine, "x86-64");
  EXPECT_EQ(info->elf_type, "position-independent executable");  // Debian's g++ defaults to PIE
  EXPECT_FALSE(info->interpreter.empty());
  EXPECT_NE(std::find(info->needed.begin(), info->needed.end(), "libc.so.6"), info->needed.end());
  EXPECT_NE(std::find(info->needed.begin(), info->needed.end(), "libstdc++.so.6"), info->needed.end());
  if (HaveReadelf()) {
    EXPECT_EQ(info->needed, ReadelfNeeded(TARE_ENV_FIXTURE));
    EXPECT_EQ(info->compilers, ReadelfComments(TARE_ENV_FIXTURE));
    EXPECT_EQ(info->build_id, ReadelfBuildId(TARE_ENV_FIXTURE));
  }
  // The compiler that built this test built the fixture too.
  ASSERT_FALSE(info->compilers.empty());
  EXPECT_EQ(info->Compiler().rfind("GCC: (", 0), 0u) << info->Compiler();
#if defined(__GNUC__) && !defined(__clang__)
  EXPECT_NE(info->Compiler().find(__VERSION__), std::string::npos) << info->Compiler() << " vs " << __VERSION__;
#endif
}

TEST_F(ExecutableInfoTest, StrippedFixture) {
  auto info = DescribeExecutable(TARE_ENV_FIXTURE_STRIPPED);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->is_elf);
  EXPECT_TRUE(info->stripped);
  EXPECT_FALSE(info->has_debug_info);
  EXPECT_EQ(info->build_id, TARE_ENV_FIXTURE_BUILD_ID);
  EXPECT_FALSE(info->compilers.empty()) << "strip keeps .comment";
}

TEST_F(ExecutableInfoTest, StaticFixtureNeedsNothing) {
  auto info = DescribeExecutable(TARE_ENV_FIXTURE_STATIC);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->is_elf) << info->elf_error;
  EXPECT_TRUE(info->needed.empty());
  EXPECT_EQ(info->interpreter, "");
  EXPECT_EQ(info->elf_type, "executable");
  if (HaveReadelf()) {
    EXPECT_EQ(info->build_id, ReadelfBuildId(TARE_ENV_FIXTURE_STATIC));
    EXPECT_EQ(info->compilers, ReadelfComments(TARE_ENV_FIXTURE_STATIC));
  }
}

TEST_F(ExecutableInfoTest, BinTrue) {
  auto info = DescribeExecutable("/bin/true");
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_TRUE(info->is_elf) << info->elf_error;
  EXPECT_TRUE(info->stripped);  // Debian strips its packages
  EXPECT_EQ(info->needed, (std::vector<std::string>{"libc.so.6"}));
  EXPECT_EQ(info->build_id.size(), 40u);  // sha1-sized, as Debian's toolchain writes it
  EXPECT_EQ(info->sha256, Sha256File("/bin/true").value());
  if (HaveReadelf()) {
    EXPECT_EQ(info->build_id, ReadelfBuildId("/bin/true"));
    EXPECT_EQ(info->needed, ReadelfNeeded("/bin/true"));
    // Debian's coreutils drops .comment when packaging: then there is no compiler to report,
    // and readelf agrees.
    EXPECT_EQ(info->compilers, ReadelfComments("/bin/true"));
  }
}

TEST_F(ExecutableInfoTest, ScriptIsDataNotAnError) {
  std::string path = Write("run.sh", "#!/bin/sh -e\necho hi\n");
  auto info = DescribeExecutable(path);
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->is_elf);
  EXPECT_EQ(info->elf_error, "not an ELF executable: a script for /bin/sh -e");
  EXPECT_EQ(info->sha256, Sha256Hex("#!/bin/sh -e\necho hi\n"));
  EXPECT_EQ(info->size_bytes, 21u);
  EXPECT_EQ(info->build_id, "");
  auto keys = ExecutableKeys(*info, "target");
  EXPECT_EQ(keys[2].value, "not ELF");
}

TEST_F(ExecutableInfoTest, NonElfAndEmptyFiles) {
  auto text = DescribeExecutable(Write("data.txt", "hello world, not a program"));
  ASSERT_TRUE(text.ok());
  EXPECT_FALSE(text->is_elf);
  EXPECT_EQ(text->elf_error.rfind("not an ELF executable", 0), 0u) << text->elf_error;
  auto empty = DescribeExecutable(Write("empty", ""));
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->is_elf);
  EXPECT_EQ(empty->sha256, Sha256Hex(""));
}

TEST_F(ExecutableInfoTest, ThirtyTwoBitElfIsRefusedClearly) {
  Elf32_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS32;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_386;
  auto info = DescribeExecutable(Write("i386", std::string(reinterpret_cast<char*>(&eh), sizeof eh)));
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->is_elf);
  EXPECT_EQ(info->elf_error,
            "not an ELF executable tare can read: 32-bit ELF (ELFCLASS32); tare reads 64-bit "
            "little-endian ELF");
}

TEST_F(ExecutableInfoTest, BigEndianElfIsRefusedClearly) {
  std::string bytes(64, '\0');
  std::memcpy(bytes.data(), ELFMAG, SELFMAG);
  bytes[EI_CLASS] = ELFCLASS64;
  bytes[EI_DATA] = ELFDATA2MSB;
  auto info = DescribeExecutable(Write("s390x", bytes));
  ASSERT_TRUE(info.ok());
  EXPECT_NE(info->elf_error.find("big-endian"), std::string::npos) << info->elf_error;
}

TEST_F(ExecutableInfoTest, MissingFileAndDirectoryAreErrors) {
  auto missing = DescribeExecutable(dir_ + "/nope");
  EXPECT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos);
  auto directory = DescribeExecutable(dir_);
  EXPECT_FALSE(directory.ok());
  EXPECT_NE(directory.status().message().find("not a regular file"), std::string::npos);
}

TEST_F(ExecutableInfoTest, DamagedElfNeverCrashes) {
  // Truncations and random byte flips of a real binary: the reader must return (with or without
  // an elf_error), never crash or hang. Run under ASan/UBSan for the full guarantee.
  std::string original = ReadFile(TARE_ENV_FIXTURE_STRIPPED).value();
  std::mt19937 rng(20240917);
  int readable = 0;
  for (int round = 0; round < 300; ++round) {
    std::string bytes = original;
    if (round < 100) {
      bytes.resize(rng() % original.size());
    } else {
      for (int flips = 0; flips < 20; ++flips) {
        // Mostly the headers, where offsets and counts live.
        size_t at = (round % 2 == 0) ? rng() % 128 : rng() % bytes.size();
        bytes[at] = static_cast<char>(rng());
      }
      if (round % 3 == 0) {  // point the section table near the end of the file
        Elf64_Ehdr eh;
        std::memcpy(&eh, bytes.data(), sizeof eh);
        eh.e_shoff = bytes.size() - (rng() % 200);
        std::memcpy(bytes.data(), &eh, sizeof eh);
      }
    }
    auto info = DescribeExecutable(Write("damaged", bytes));
    ASSERT_TRUE(info.ok());
    readable += info->is_elf ? 1 : 0;
    EXPECT_EQ(info->is_elf, info->elf_error.empty());
    // Whatever bytes the damage left in .comment or DT_NEEDED, the JSON must still serialise.
    EXPECT_NO_THROW(ExecutableInfoToJson(*info).dump());
  }
  EXPECT_GT(readable, 0);
}

TEST_F(ExecutableInfoTest, JsonRoundTrip) {
  auto info = DescribeExecutable(TARE_ENV_FIXTURE);
  ASSERT_TRUE(info.ok());
  auto back = ExecutableInfoFromJson(ExecutableInfoToJson(*info));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->build_id, info->build_id);
  EXPECT_EQ(back->needed, info->needed);
  EXPECT_EQ(back->compilers, info->compilers);
  EXPECT_EQ(back->size_bytes, info->size_bytes);
  EXPECT_EQ(ExecutableInfoToJson(*back), ExecutableInfoToJson(*info));

  nlohmann::json broken = ExecutableInfoToJson(*info);
  broken.erase("sha256");
  auto bad = ExecutableInfoFromJson(broken);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  // A float size (a bundle from another host) is refused, not converted.
  nlohmann::json huge = ExecutableInfoToJson(*info);
  huge["size_bytes"] = 1e300;
  auto refused = ExecutableInfoFromJson(huge);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(refused.status().message().find("size_bytes"), std::string::npos) << refused.status().message();
}

TEST_F(ExecutableInfoTest, ExecutableKeysClassOnlyTheCompilerHard) {
  auto info = DescribeExecutable(TARE_ENV_FIXTURE);
  ASSERT_TRUE(info.ok());
  auto keys = ExecutableKeys(*info, "target");
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[0].key, "target.sha256");
  EXPECT_FALSE(keys[0].hard);
  EXPECT_EQ(keys[1].key, "target.build_id");
  EXPECT_EQ(keys[1].value, TARE_ENV_FIXTURE_BUILD_ID);
  EXPECT_FALSE(keys[1].hard);
  EXPECT_EQ(keys[2].key, "target.compiler");
  EXPECT_TRUE(keys[2].hard);
}

}  // namespace
}  // namespace tare::env
