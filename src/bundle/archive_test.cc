// The archive layer against hostile input: archives built here with libarchive itself (path
// traversal, absolute names, symlinks, hard links, duplicates, oversized members, directories),
// and bundles with a tampered, missing or unlisted member or manifest. Real files in real
// temporary directories; every refusal must name the member, and nothing may land outside the
// extraction directory.
#include "bundle/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "base/json_text.h"
#include "base/sha256.h"
#include "bundle/manifest.h"
#include "bundle/opened_bundle.h"
#include "bundle/run_document.h"

// Entries below list only the fields that matter to each case.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tare::bundle {
namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string name;
  std::string content;
  unsigned type = AE_IFREG;
  std::string link;   // symlink or hard link target
  int64_t size = -1;  // declared size; -1: content's
};

// A gzip'd tar with exactly these entries, whatever they are.
void WriteRaw(const std::string& path, const std::vector<Entry>& entries) {
  archive* a = archive_write_new();
  archive_write_add_filter_gzip(a);
  archive_write_set_format_pax_restricted(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const auto& e : entries) {
    archive_entry* x = archive_entry_new();
    archive_entry_set_pathname(x, e.name.c_str());
    archive_entry_set_filetype(x, e.type);
    archive_entry_set_perm(x, 0644);
    if (e.type == AE_IFLNK) archive_entry_set_symlink(x, e.link.c_str());
    if (e.type == AE_IFREG && !e.link.empty()) archive_entry_set_hardlink(x, e.link.c_str());
    archive_entry_set_size(
        x, e.type == AE_IFREG && e.link.empty() ? (e.size >= 0 ? e.size : static_cast<int64_t>(e.content.size())) : 0);
    archive_write_header(a, x);
    if (e.type == AE_IFREG && e.link.empty()) archive_write_data(a, e.content.data(), e.content.size());
    archive_entry_free(x);
  }
  archive_write_close(a);
  archive_write_free(a);
}

class ArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = MakeTempDir("tare-archive-test");
    ASSERT_TRUE(d.ok());
    root_ = *d;
    dest_ = root_ + "/x/y";
    fs::create_directories(dest_);
  }
  void TearDown() override { RemoveTree(root_); }

  // Extraction of an archive of `entries` must fail naming `member` and `why`, and leave nothing
  // outside dest.
  void ExpectRefused(const std::vector<Entry>& entries, const std::string& member, const std::string& why,
                     const ArchiveLimits& limits = {}) {
    const std::string path = root_ + "/bad.tar.gz";
    WriteRaw(path, entries);
    auto r = ExtractArchive(path, dest_, limits);
    ASSERT_FALSE(r.ok()) << member;
    EXPECT_NE(r.status().message().find("'" + member + "'"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(why), std::string::npos) << r.status().message();
    for (const auto& e : fs::recursive_directory_iterator(root_)) {
      const std::string p = e.path().string();
      EXPECT_TRUE(p == path || p.rfind(root_ + "/x", 0) == 0 || p == root_ + "/" + kOwnerLockFile)
          << "written outside the extraction directory: " << p;
      EXPECT_EQ(p.find("evil"), std::string::npos) << p;
    }
  }

  std::string root_, dest_;
};

TEST_F(ArchiveTest, WritesAndExtractsMembersExactly) {
  std::string binary;
  for (int i = 0; i < 300000; ++i) binary.push_back(static_cast<char>(i * 7));
  const std::string file = root_ + "/prog";
  ASSERT_TRUE(WriteFileAtomic(file, binary).ok());
  const std::string out = root_ + "/a.tar.gz";
  ASSERT_TRUE(WriteArchive(out, {{"manifest.json", "{}", "", false},
                                 {"bin/base", "", file, true},
                                 {"profiles/0/callgrind.out", std::string("a\0b", 3), "", false}})
                  .ok());
  auto r = ExtractArchive(out, dest_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[1].name, "bin/base");
  EXPECT_EQ(*ReadFile(dest_ + "/bin/base"), binary);
  EXPECT_EQ(*ReadFile(dest_ + "/profiles/0/callgrind.out"), std::string("a\0b", 3));
  struct stat st {};
  ASSERT_EQ(stat((dest_ + "/bin/base").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0100, 0u) << "an executable member keeps its owner's execute bit";
  auto first = ReadFirstMember(out, 1024);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->name, "manifest.json");
  EXPECT_EQ(first->content, "{}");
}

TEST_F(ArchiveTest, WriterRefusesNamesTheReaderWouldRefuse) {
  EXPECT_FALSE(WriteArchive(root_ + "/w.tar.gz", {{"../x", "", "", false}}).ok());
  EXPECT_FALSE(WriteArchive(root_ + "/w.tar.gz", {{"/etc/x", "", "", false}}).ok());
}

TEST_F(ArchiveTest, RefusesPathTraversal) {
  ExpectRefused({{"ok", "1"}, {"../evil", "x"}}, "../evil", "path traversal");
  ExpectRefused({{"a/../../evil", "x"}}, "a/../../evil", "path traversal");
}

TEST_F(ArchiveTest, RefusesAbsoluteNames) { ExpectRefused({{"/tmp/evil", "x"}}, "/tmp/evil", "absolute"); }

TEST_F(ArchiveTest, RefusesSymlinksAndHardLinks) {
  ExpectRefused({{"evil-link", "", AE_IFLNK, "/etc/passwd"}}, "evil-link", "symbolic link");
  ExpectRefused({{"a", "1"}, {"evil-hard", "", AE_IFREG, "a"}}, "evil-hard", "hard link");
}

TEST_F(ArchiveTest, RefusesDirectoriesAndDevices) {
  ExpectRefused({{"somedir", "", AE_IFDIR}}, "somedir/", "refused");  // a directory's name ends in '/'

  ExpectRefused({{"fifo", "", AE_IFIFO}}, "fifo", "not a regular file");
}

TEST_F(ArchiveTest, RefusesDuplicateNames) {
  ExpectRefused({{"run.json", "good"}, {"run.json", "shadow"}}, "run.json", "same name");
}

TEST_F(ArchiveTest, RefusesOversizedMembersAndBombs) {
  ArchiveLimits small;
  small.max_member_bytes = 1000;
  small.max_total_bytes = 1500;
  ExpectRefused({{"big", std::string(1001, 'x')}}, "big", "more than the 1000", small);
  ExpectRefused({{"a", std::string(900, 'x')}, {"b", std::string(900, 'x')}}, "b", "more than 1500", small);
}

TEST_F(ArchiveTest, RefusesOddNames) {
  ExpectRefused({{"a\nb", "x"}}, "a\nb", "0x0a");
  ExpectRefused({{"a//b", "x"}}, "a//b", "empty component");
}

TEST_F(ArchiveTest, RefusesWhatIsNotAGzippedTar) {
  ASSERT_TRUE(WriteFileAtomic(root_ + "/junk", "this is not an archive").ok());
  auto r = ExtractArchive(root_ + "/junk", dest_);
  EXPECT_FALSE(r.ok());
}

// A minimal valid bundle: manifest, its hash and the listed members.
std::vector<Entry> Bundle(std::map<std::string, std::string> members,
                          std::map<std::string, std::string> listed_as = {}) {
  Manifest m;
  m.run_uid = std::string(32, 'a');
  m.run_kind = RunKind::kRun;
  m.run_id = 1;
  for (const auto& [name, content] : members) {
    const std::string& c = listed_as.count(name) ? listed_as[name] : content;
    m.members.push_back({name, Sha256Hex(c), static_cast<int64_t>(c.size())});
  }
  const std::string text = DumpJson(ManifestToJson(m), 2);
  std::vector<Entry> out = {{kManifestMember, text}, {kManifestHashMember, Sha256Hex(text) + "\n"}};
  for (const auto& [name, content] : members) out.push_back({name, content});
  return out;
}

// A run document as `tare bundle` writes one: a `tare run` of one executable, "ELF".
std::string RunJson(const std::string& target_sha256) {
  store::FullRun run;
  run.data.run.uid = std::string(32, 'a');
  run.data.run.kind = RunKind::kRun;
  run.data.run.id = 1;
  ExecutableRecord target;
  target.role = "target";
  target.path = "/build/target";
  target.sha256 = target_sha256;
  run.data.executables.push_back(target);
  return DumpJson(FullRunToJson(run, ArtifactContent::kMembers), 2);
}

TEST_F(ArchiveTest, OpensAnIntactBundle) {
  const std::string path = root_ + "/b.tar.gz";
  WriteRaw(path, Bundle({{"run.json", RunJson(Sha256Hex("ELF"))}, {"bin/target", "ELF"}}));
  VerifyResult result;
  auto b = OpenBundle(path, &result);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(result.members, 4);
  EXPECT_EQ(*b->Read("bin/target"), "ELF");
  const std::string dir = b->dir();
  EXPECT_TRUE(fs::exists(dir));
  { OpenedBundle gone = std::move(*b); }
  EXPECT_FALSE(fs::exists(dir)) << "the private directory goes with the bundle";
}

TEST_F(ArchiveTest, NamesATamperedMember) {
  const std::string path = root_ + "/b.tar.gz";
  WriteRaw(path, Bundle({{"run.json", "{}"}, {"bin/target", "ELG"}}, {{"bin/target", "ELF"}}));
  VerifyResult result;
  auto b = OpenBundle(path, &result);
  ASSERT_FALSE(b.ok());
  ASSERT_EQ(result.problems.size(), 1u);
  EXPECT_NE(result.problems[0].find("member 'bin/target' is tampered"), std::string::npos) << result.problems[0];
}

TEST_F(ArchiveTest, NamesMissingAndUnlistedMembers) {
  const std::string path = root_ + "/b.tar.gz";
  auto entries = Bundle({{"run.json", "{}"}, {"bin/target", "ELF"}});
  std::erase_if(entries, [](const Entry& e) { return e.name == "bin/target"; });
  entries.push_back({"extra", "unlisted"});  // not in the manifest
  WriteRaw(path, entries);
  VerifyResult result;
  ASSERT_FALSE(OpenBundle(path, &result).ok());
  ASSERT_EQ(result.problems.size(), 2u);
  EXPECT_NE(result.problems[0].find("member 'bin/target' is missing"), std::string::npos);
  EXPECT_NE(result.problems[1].find("member 'extra' is not in the manifest"), std::string::npos);
}

TEST_F(ArchiveTest, NamesATamperedManifest) {
  const std::string path = root_ + "/b.tar.gz";
  auto entries = Bundle({{"run.json", "{}"}});
  entries[0].content[entries[0].content.find("\"run\"") + 1] ^= 0x20;  // "Run": still JSON, different bytes
  WriteRaw(path, entries);
  VerifyResult result;
  ASSERT_FALSE(OpenBundle(path, &result).ok());
  ASSERT_FALSE(result.problems.empty());
  EXPECT_NE(result.problems[0].find("member 'manifest.json' is tampered"), std::string::npos) << result.problems[0];
}

// Issue 27, item 14: a member larger than its manifest entry was written in full (1 GiB) before it
// was found "tampered", and an unlisted member likewise. The gate sees each header before a byte
// is written: a refused member is skipped, nothing of it lands in the directory, and the members
// after it are still read.
TEST_F(ArchiveTest, AGateRefusesAMemberBeforeAByteOfItIsWritten) {
  const std::string path = root_ + "/g.tar.gz";
  WriteRaw(path, {{"a", "aaa"}, {"big", std::string(1 << 20, 'b')}, {"c", "ccc"}});
  std::vector<std::pair<std::string, int64_t>> asked;
  auto r = ExtractArchive(path, dest_, {}, [&](const std::string& name, int64_t declared) -> std::string {
    asked.emplace_back(name, declared);
    return name == "big" ? "too big" : "";
  });
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[1].refused, "too big");
  EXPECT_EQ((*r)[1].size, 1 << 20);
  EXPECT_EQ((*r)[1].path, "");
  EXPECT_FALSE(fs::exists(dest_ + "/big"));
  EXPECT_EQ(*ReadFile(dest_ + "/c"), "ccc");
  EXPECT_EQ(asked[1], (std::pair<std::string, int64_t>{"big", 1 << 20}));
}

TEST_F(ArchiveTest, ABundleMemberLargerThanItsManifestEntryOrUnlistedIsNeverExtracted) {
  const std::string path = root_ + "/b.tar.gz";
  // bin/target listed as 3 bytes, 1 MiB in the archive; "extra" not listed at all.
  auto entries = Bundle({{"run.json", "{}"}, {"bin/target", std::string(1 << 20, 'E')}}, {{"bin/target", "ELF"}});
  entries.push_back({"extra", std::string(1 << 20, 'x')});
  WriteRaw(path, entries);
  VerifyResult result;
  ASSERT_FALSE(OpenBundle(path, &result).ok());
  ASSERT_EQ(result.problems.size(), 2u);
  EXPECT_EQ(result.problems[0],
            "member 'bin/target' is tampered: 1048576 bytes, the manifest says 3 (refused before extraction)");
  EXPECT_EQ(result.problems[1], "member 'extra' is not in the manifest (refused before extraction)");
  EXPECT_LT(result.bytes, 4096) << "the refused members were extracted";
  // A member ahead of the manifest is refused too: nothing is known to be allowed yet.
  auto first = Bundle({{"run.json", "{}"}});
  first.insert(first.begin(), Entry{"early", "x"});
  WriteRaw(path, first);
  ASSERT_FALSE(OpenBundle(path, &result).ok());
  ASSERT_FALSE(result.problems.empty());
  EXPECT_NE(result.problems.back().find("member 'early' is refused: it comes before 'manifest.json'"),
            std::string::npos)
      << result.problems.back();
}

TEST_F(ArchiveTest, RefusesAFlippedByteInTheCompressedStream) {
  const std::string path = root_ + "/b.tar.gz";
  WriteRaw(path, Bundle({{"run.json", std::string(5000, 'r')}}));
  std::string bytes = *ReadFile(path);
  bytes[bytes.size() / 2] ^= 0x01;
  ASSERT_TRUE(WriteFileAtomic(path, bytes).ok());
  EXPECT_FALSE(OpenBundle(path).ok());
}

}  // namespace
}  // namespace tare::bundle
