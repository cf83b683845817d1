#include "base/hash_cache.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <atomic>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "base/sha256.h"

namespace tare {
namespace {

int64_t RealNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// A clock `offset_ns` ahead of the real one: files written now look settled (or not) to the cache.
std::function<int64_t()> Ahead(int64_t offset_ns) {
  return [offset_ns] { return RealNowNs() + offset_ns; };
}
constexpr int64_t kSettled = 10'000'000'000;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::trunc) << text; }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

class FileHashCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = ::testing::TempDir() + "/hash_cache_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ + "/files");
    dir_ = root_ + "/cache";
    cache_file_ = dir_ + "/sha256-v1";
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::string File(const std::string& name, const std::string& text) {
    const std::string p = root_ + "/files/" + name;
    Write(p, text);
    return p;
  }
  std::string root_, dir_, cache_file_;
};

TEST_F(FileHashCacheTest, ASettledFileIsRememberedAndNotReadAgain) {
  const std::string f = File("prog", "the program's bytes");
  FileHashCache cache(dir_, Ahead(kSettled));
  auto first = cache.Sha256(f);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(*first, Sha256Hex("the program's bytes"));
  auto lines = Lines(Slurp(cache_file_));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].substr(0, 65), *first + " ");
  EXPECT_EQ(lines[0].substr(lines[0].size() - f.size()), f);

  // Proof that a later process takes the digest from the cache, not the file: a digest planted
  // for the file's exact identity is what comes back.
  const std::string planted(64, 'a');
  Write(cache_file_, planted + lines[0].substr(64) + "\n");
  FileHashCache later(dir_, Ahead(kSettled));
  auto again = later.Sha256(f);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, planted);
}

TEST_F(FileHashCacheTest, AnyWriteToTheFileIsSeenEvenWithItsMtimeSetBack) {
  const std::string f = File("prog", "version 1");
  struct stat st1 {};
  ASSERT_EQ(stat(f.c_str(), &st1), 0);
  FileHashCache cache(dir_, Ahead(kSettled));
  ASSERT_EQ(*cache.Sha256(f), Sha256Hex("version 1"));
  // Same size, other bytes, mtime put back as `cp -p` or `touch -d` would: only ctime moves (a
  // write in the same tick of the file clock may not move it, hence the loop).
  struct stat st2 {};
  for (int i = 0; i < 200; ++i) {
    Write(f, "version 2");
    const timespec times[2] = {st1.st_atim, st1.st_mtim};
    ASSERT_EQ(utimensat(AT_FDCWD, f.c_str(), times, 0), 0);
    ASSERT_EQ(stat(f.c_str(), &st2), 0);
    if (st2.st_ctim.tv_sec != st1.st_ctim.tv_sec || st2.st_ctim.tv_nsec != st1.st_ctim.tv_nsec) break;
    usleep(5000);
  }
  ASSERT_EQ(st2.st_mtim.tv_nsec, st1.st_mtim.tv_nsec);
  EXPECT_EQ(*cache.Sha256(f), Sha256Hex("version 2"));
  FileHashCache later(dir_, Ahead(kSettled));
  EXPECT_EQ(*later.Sha256(f), Sha256Hex("version 2"));
}

TEST_F(FileHashCacheTest, AFileChangedJustBeforeItWasHashedIsNotRemembered) {
  const std::string f = File("fresh", "just linked");
  FileHashCache now(dir_);  // the real clock: the file changed within kSettleNs
  EXPECT_EQ(*now.Sha256(f), Sha256Hex("just linked"));
  EXPECT_FALSE(std::filesystem::exists(cache_file_));
  FileHashCache later(dir_, Ahead(kSettled));
  EXPECT_EQ(*later.Sha256(f), Sha256Hex("just linked"));
  EXPECT_EQ(Lines(Slurp(cache_file_)).size(), 1u);
}

TEST_F(FileHashCacheTest, LinesThatDoNotParseAreDroppedAndTheRestKept) {
  const std::string kept = std::string(64, 'b') + " 1 2 3 4 5 /some/other file";
  std::filesystem::create_directories(dir_);
  Write(cache_file_, "garbage\n" + std::string(64, 'c') + " 1 2 3\n" + std::string(64, 'G') +
                         " 1 2 3 4 5 /upper/hex\n" + std::string(64, 'd') + " 1 2 99999999999999999999 4 5 /big\n" +
                         std::string(64, 'e') + " 1 -2 3 4 5 /negative/inode\n" + kept + "\n" + std::string(64, 'f') +
                         " 1 2 3 4 5 /cut/short");
  const std::string f = File("prog", "bytes");
  FileHashCache cache(dir_, Ahead(kSettled));
  EXPECT_EQ(*cache.Sha256(f), Sha256Hex("bytes"));
  auto lines = Lines(Slurp(cache_file_));
  ASSERT_EQ(lines.size(), 2u) << Slurp(cache_file_);
  EXPECT_EQ(lines[0], kept);
  EXPECT_EQ(lines[1].substr(lines[1].size() - f.size()), f);
}

TEST_F(FileHashCacheTest, WithoutADirectoryOrOneThatCannotBeWrittenEveryCallHashes) {
  const std::string f = File("prog", "bytes");
  FileHashCache none("", Ahead(kSettled));
  EXPECT_EQ(*none.Sha256(f), Sha256Hex("bytes"));
  // A directory under a regular file can never be created.
  FileHashCache blocked(f + "/cache", Ahead(kSettled));
  EXPECT_EQ(*blocked.Sha256(f), Sha256Hex("bytes"));
  EXPECT_EQ(*blocked.Sha256(f), Sha256Hex("bytes"));
  auto missing = none.Sha256(root_ + "/files/absent");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("absent"), std::string::npos);
}

// Issue 48, item 2: an entry is a digest tare reports without reading the file, so the cache is
// read only where nobody but its user could have written it.
// A planted line claiming `digest` for `f`, with `f`'s identity as stat shows it to anyone.
std::string PlantedLine(const std::string& f, const std::string& digest) {
  struct stat st {};
  EXPECT_EQ(::stat(f.c_str(), &st), 0);
  return fmt::format("{} {} {} {} {} {} {}\n", digest, st.st_dev, st.st_ino, st.st_size,
                     st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec,
                     st.st_ctim.tv_sec * 1'000'000'000LL + st.st_ctim.tv_nsec, f);
}

TEST_F(FileHashCacheTest, ACacheOthersCouldWriteIsNeitherReadNorWritten) {
  const std::string f = File("prog", "bytes");
  const std::string planted = PlantedLine(f, std::string(64, 'a'));
  std::filesystem::create_directories(dir_);
  // A directory others may write: they could have replaced the file.
  Write(cache_file_, planted);
  ::chmod(dir_.c_str(), 0777);
  EXPECT_EQ(*FileHashCache(dir_, Ahead(kSettled)).Sha256(f), Sha256Hex("bytes"));
  EXPECT_EQ(Slurp(cache_file_), planted) << "nothing is written to a directory others may write";
  // A file others may write.
  ::chmod(dir_.c_str(), 0755);
  ::chmod(cache_file_.c_str(), 0666);
  EXPECT_EQ(*FileHashCache(dir_, Ahead(kSettled)).Sha256(f), Sha256Hex("bytes"));
  // A file that is a link to one the user may not own.
  ::unlink(cache_file_.c_str());
  Write(root_ + "/elsewhere", planted);
  ASSERT_EQ(::symlink((root_ + "/elsewhere").c_str(), cache_file_.c_str()), 0);
  EXPECT_EQ(*FileHashCache(dir_, Ahead(kSettled)).Sha256(f), Sha256Hex("bytes"));
  ::unlink(cache_file_.c_str());
  // Owned by someone else (testable as root only: chown needs it).
  if (::geteuid() == 0) {
    Write(cache_file_, planted);
    ASSERT_EQ(::chown(cache_file_.c_str(), 65534, 65534), 0);
    EXPECT_EQ(*FileHashCache(dir_, Ahead(kSettled)).Sha256(f), Sha256Hex("bytes")) << "a file of another user";
    ::unlink(cache_file_.c_str());
    Write(cache_file_, planted);
    ASSERT_EQ(::chown(dir_.c_str(), 65534, 65534), 0);
    EXPECT_EQ(*FileHashCache(dir_, Ahead(kSettled)).Sha256(f), Sha256Hex("bytes")) << "a directory of another user";
  }
}

TEST_F(FileHashCacheTest, ALinkPlantedAtTheTemporaryNameIsNotFollowed) {
  const std::string f = File("prog", "bytes");
  std::filesystem::create_directories(dir_);
  const std::string victim = root_ + "/victim";
  Write(victim, "precious\n");
  ::chmod(victim.c_str(), 0600);
  // The name the cache used for its temporary file before issue 48: sha256-v1.<pid>.tmp.
  ASSERT_EQ(::symlink(victim.c_str(), (cache_file_ + "." + std::to_string(getpid()) + ".tmp").c_str()), 0);
  FileHashCache cache(dir_, Ahead(kSettled));
  EXPECT_EQ(*cache.Sha256(f), Sha256Hex("bytes"));
  EXPECT_EQ(Slurp(victim), "precious\n");
  ASSERT_EQ(Lines(Slurp(cache_file_)).size(), 1u) << "the entry is still remembered";
  struct stat st {};
  ASSERT_EQ(::lstat(cache_file_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(FileHashCacheTest, TheOldestEntriesGoBeyondTheLimit) {
  std::filesystem::create_directories(dir_);
  std::string text;
  for (size_t i = 0; i < FileHashCache::kMaxEntries; ++i) {
    text += std::string(64, 'a') + " 1 " + std::to_string(i) + " 3 4 5 /synthetic/" + std::to_string(i) + "\n";
  }
  Write(cache_file_, text);
  const std::string f = File("prog", "bytes");
  FileHashCache cache(dir_, Ahead(kSettled));
  EXPECT_EQ(*cache.Sha256(f), Sha256Hex("bytes"));
  auto lines = Lines(Slurp(cache_file_));
  ASSERT_EQ(lines.size(), FileHashCache::kMaxEntries);
  EXPECT_EQ(lines.front().substr(lines.front().rfind(' ') + 1), "/synthetic/1");
  EXPECT_EQ(lines.back().substr(lines.back().size() - f.size()), f);
}

TEST_F(FileHashCacheTest, ThreadsHashingAtOnceAllGetTheRightDigests) {
  std::vector<std::string> files;
  for (int i = 0; i < 8; ++i) files.push_back(File("f" + std::to_string(i), std::string(1000 + i, 'x')));
  FileHashCache cache(dir_, Ahead(kSettled));
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 25; ++round) {
        const int i = (t + round) % 8;
        auto h = cache.Sha256(files[i]);
        if (!h.ok() || *h != Sha256Hex(std::string(1000 + i, 'x'))) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(Lines(Slurp(cache_file_)).size(), 8u);
}

TEST(FileHashCacheDirectory, ComesFromTheEnvironmentAndOnlyAsAnAbsolutePath) {
  struct Saved {
    const char* name;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved;
  for (const char* n : {"TARE_HASH_CACHE", "XDG_CACHE_HOME", "HOME"}) {
    const char* v = std::getenv(n);
    saved.push_back({n, v ? std::optional<std::string>(v) : std::nullopt});
    unsetenv(n);
  }
  EXPECT_EQ(FileHashCache::DirectoryFromEnvironment(), "");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(FileHashCache::DirectoryFromEnvironment(), "/home/u/.cache/tare");
  setenv("XDG_CACHE_HOME", "relative/cache", 1);
  EXPECT_EQ(FileHashCache::DirectoryFromEnvironment(), "/home/u/.cache/tare");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(FileHashCache::DirectoryFromEnvironment(), "/xdg/tare");
  setenv("TARE_HASH_CACHE", "/mine", 1);
  EXPECT_EQ(FileHashCache::DirectoryFromEnvironment(), "/mine");
  setenv("TARE_HASH_CACHE", "off", 1);
  EXPECT_EQ(FileHashCache::DirectoryFromEnvironment(), "");
  for (const auto& s : saved) {
    if (s.value) {
      setenv(s.name, s.value->c_str(), 1);
    } else {
      unsetenv(s.name);
    }
  }
}

}  // namespace
}  // namespace tare
