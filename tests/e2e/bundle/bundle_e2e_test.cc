// Evidence bundles end to end, through the real tare binary: real `tare run --instrument sim`
// runs and a real `tare ab --instrument sim` cohort (valgrind), exported and imported between
// real SQLite stores, bundled into real gzip'd tars, verified, tampered with member by member,
// replayed in an empty directory and compared with `tare spread`.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

#include "../tare_process.h"
#include "base/sha256.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tare::e2e::Result;

struct Member {
  std::string name;
  std::string content;
  int perm = 0644;
};

std::vector<Member> ReadMembers(const std::string& path) {
  std::vector<Member> out;
  archive* a = archive_read_new();
  archive_read_support_filter_gzip(a);
  archive_read_support_format_tar(a);
  EXPECT_EQ(archive_read_open_filename(a, path.c_str(), 1 << 16), ARCHIVE_OK);
  archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    Member m{archive_entry_pathname(e), std::string(static_cast<size_t>(archive_entry_size(e)), '\0'),
             static_cast<int>(archive_entry_perm(e))};
    if (!m.content.empty()) archive_read_data(a, m.content.data(), m.content.size());
    out.push_back(std::move(m));
  }
  archive_read_free(a);
  return out;
}

void WriteMembers(const std::string& path, const std::vector<Member>& members) {
  archive* a = archive_write_new();
  archive_write_add_filter_gzip(a);
  archive_write_set_format_pax_restricted(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const auto& m : members) {
    archive_entry* x = archive_entry_new();
    archive_entry_set_pathname(x, m.name.c_str());
    archive_entry_set_filetype(x, AE_IFREG);
    archive_entry_set_perm(x, m.perm);
    archive_entry_set_size(x, static_cast<int64_t>(m.content.size()));
    archive_write_header(a, x);
    archive_write_data(a, m.content.data(), m.content.size());
    archive_entry_free(x);
  }
  archive_write_close(a);
  archive_write_free(a);
}

// The export document without the ids a store hands out (run, benchmark and sample ids), which
// differ between stores by design: everything else must be equal after import.
json WithoutStoreIds(json j) {
  j["run"].erase("id");
  std::map<int64_t, int64_t> bench, sample;
  int64_t si = 0;
  for (size_t i = 0; i < j["benchmarks"].size(); ++i) {
    json& b = j["benchmarks"][i];
    bench[b["id"].get<int64_t>()] = static_cast<int64_t>(i);
    b["id"] = i;
    for (auto& s : b["samples"]) {
      sample[s["id"].get<int64_t>()] = si;
      s["id"] = si++;
    }
  }
  for (auto& a : j["artifacts"]) a["benchmark_id"] = bench[a["benchmark_id"].get<int64_t>()];
  if (!j["campaign"].is_null()) {
    for (auto& c : j["campaign"]["cells"]) c["benchmark_id"] = bench[c["benchmark_id"].get<int64_t>()];
  }
  return j;
}

// `tare spread --json` over an original and its replay: `rows` sim.Ir rows, each measured by both
// runs, with every sample equal (spread exactly 0) unless `tolerance_pct` allows a little.
void ExpectIrRepeated(const json& spread, int rows, double tolerance_pct = 0.0) {
  EXPECT_EQ(spread["runs"].size(), 2u);
  int ir_rows = 0;
  for (const auto& row : spread["rows"]) {
    if (row["metric"] != "sim.Ir") continue;
    ++ir_rows;
    EXPECT_EQ(row["runs"], 2) << row.dump();
    if (tolerance_pct == 0.0) {
      EXPECT_EQ(row["sample_min"], row["sample_max"]) << row.dump();
      EXPECT_EQ(row["spread_pct"], 0.0) << row.dump();
    } else {
      EXPECT_LE(row["spread_pct"].get<double>(), tolerance_pct) << row.dump();
    }
  }
  EXPECT_EQ(ir_rows, rows) << spread.dump(1);
}

class BundleE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tare-bundle-e2e-XXXXXX";
    dir_ = mkdtemp(tmpl);
    // A store is created only in a directory that exists: the stores' directories of these tests.
    for (const char* d : {"s", "swapped", "kept", "i"}) fs::create_directories(dir_ + "/" + d);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  Result Tare(std::vector<std::string> args, const std::string& cwd = "") {
    return tare::e2e::RunTare(TARE_BIN, cwd.empty() ? dir_ : cwd, std::move(args));
  }
  json Export(const std::string& store) {
    Result r = Tare({"export", "--run", "latest", "--store", store});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  }

  // export -> import into a fresh store -> export: the same document but for store ids; a second
  // import adds nothing.
  void ExpectImportRoundTrips(const std::string& store, const std::string& tag) {
    const std::string file = dir_ + "/" + tag + ".json";
    Result e = Tare({"export", "--run", "latest", "--store", store, "-o", file});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    fs::create_directories(dir_ + "/" + tag + "-imported");
    const std::string other = dir_ + "/" + tag + "-imported/tare.db";
    Result i = Tare({"import", file, "--store", other});
    ASSERT_EQ(i.exit_code, 0) << i.out << i.err;
    EXPECT_NE(i.out.find("imported run"), std::string::npos) << i.out;
    Result again = Tare({"import", file, "--store", other});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.out.find("nothing added"), std::string::npos) << again.out;
    Result runs = Tare({"runs", "--store", other});
    EXPECT_EQ(std::count(runs.out.begin(), runs.out.end(), '\n'), 2) << runs.out;  // header + one run
    EXPECT_EQ(WithoutStoreIds(Export(other)).dump(1), WithoutStoreIds(json::parse(tare::e2e::Slurp(file))).dump(1));
  }

  // Every member of `bundle`, one byte flipped in turn, is refused by `tare bundle verify` with the
  // member named; a member taken out is named missing.
  void ExpectEveryTamperRefused(const std::string& bundle) {
    const std::vector<Member> members = ReadMembers(bundle);
    ASSERT_GE(members.size(), 5u);
    for (size_t i = 0; i < members.size(); ++i) {
      std::vector<Member> copy = members;
      if (copy[i].content.empty()) continue;
      copy[i].content[copy[i].content.size() / 2] ^= 0x01;
      const std::string bad = dir_ + "/tampered.tar.gz";
      WriteMembers(bad, copy);
      Result v = Tare({"bundle", "verify", bad});
      EXPECT_EQ(v.exit_code, 2) << members[i].name << ": " << v.out;
      const std::string named = members[i].name == "manifest.sha256" ? "manifest.json" : members[i].name;
      EXPECT_NE(v.err.find("'" + named + "'"), std::string::npos) << members[i].name << ": " << v.err;
    }
    std::vector<Member> fewer = members;
    const std::string gone = fewer.back().name;
    fewer.pop_back();
    WriteMembers(dir_ + "/fewer.tar.gz", fewer);
    Result v = Tare({"bundle", "verify", dir_ + "/fewer.tar.gz"});
    EXPECT_EQ(v.exit_code, 2);
    EXPECT_NE(v.err.find("member '" + gone + "' is missing"), std::string::npos) << v.err;
  }

  // Issue 27, item 6: another build in place of bin/target, with the manifest and manifest.sha256
  // rewritten to match it, is consistent as an archive; run.json's record of the run's executable
  // still names the original build, so verify, import and replay refuse it.
  void ExpectSwappedBuildRefused(const std::string& bundle) {
    std::vector<Member> members = ReadMembers(bundle);
    const std::string other = tare::e2e::Slurp("/bin/true");
    const std::string other_sha = tare::Sha256Hex(other);
    json manifest;
    for (auto& m : members) {
      if (m.name == "bin/target") m.content = other;
      if (m.name == "manifest.json") manifest = json::parse(m.content);
    }
    ASSERT_TRUE(manifest.is_object());
    for (auto& m : manifest["members"]) {
      if (m["name"] == "bin/target") {
        m["sha256"] = other_sha;
        m["size"] = other.size();
      }
    }
    for (auto& e : manifest["executables"]) {
      if (e["member"] == "bin/target") e["sha256"] = other_sha;
    }
    const std::string text = manifest.dump(2);
    for (auto& m : members) {
      if (m.name == "manifest.json") m.content = text;
      if (m.name == "manifest.sha256") m.content = tare::Sha256Hex(text) + "\n";
    }
    const std::string swapped = dir_ + "/swapped.tar.gz";
    WriteMembers(swapped, members);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"bundle", "verify", swapped},
                                                 {"import", swapped, "--store", dir_ + "/swapped/tare.db"},
                                                 {"replay", swapped, "--store", dir_ + "/swapped/tare.db"}}) {
      Result v = Tare(args);
      EXPECT_EQ(v.exit_code, 2) << args[0] << ": " << v.out << v.err;
      EXPECT_NE(
          v.err.find("executable 'target' (member 'bin/target') has sha256 " + other_sha + ", but run.json recorded"),
          std::string::npos)
          << args[0] << ": " << v.err;
    }
    EXPECT_FALSE(fs::exists(dir_ + "/swapped/tare.db"));
  }

  std::string dir_;
};

// `tare run --instrument sim` of a Google Benchmark binary: export/import, a bundle, every
// tampered member refused, and a replay in an empty directory that reproduces every sim.Ir.
// Measured from a path shorter than any the replay can make (the bundle's directory in TMPDIR), a
// sim run's replay says that a program copying its argv[0] may count differently, and how to help.
// A wall run's replay does not: its figures are not exact anyway.
TEST_F(BundleE2E, AReplayUnderALongerPathSaysSoForExactCounts) {
  const std::string measured = dir_ + "/gbench_basic";
  fs::copy_file(GBENCH_BASIC, measured);
  for (const char* instrument : {"sim", "wall"}) {
    const std::string where = dir_ + "/" + instrument;
    fs::create_directories(where);
    Result run = Tare({"run", "--instrument", instrument, "--samples", "1", "--warmup", "0", "--filter",
                       "BM_StringCopy/64", "--store", where + "/tare.db", "--", measured});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    Result b = Tare({"bundle", "--run", "latest", "--store", where + "/tare.db", "-o", where + "/b.tar.gz"});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    Result r = Tare({"replay", "--store", where + "/replay.db", where + "/b.tar.gz"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const bool noted = r.out.find("may count a few instructions differently") != std::string::npos;
    EXPECT_EQ(noted, std::string(instrument) == "sim") << instrument << "\n" << r.out;
    if (std::string(instrument) == "sim") {
      EXPECT_NE(r.out.find("measured as '" + measured + "' (" + std::to_string(measured.size()) + ")"),
                std::string::npos)
          << r.out;
      EXPECT_NE(r.out.find("a shorter TMPDIR"), std::string::npos) << r.out;
    }
  }
}

TEST_F(BundleE2E, SimRunBundledReplayedAndSpreadIsZero) {
  const std::string store = dir_ + "/s/tare.db";
  // Measured from a path longer than the replay's own (the bundle's directory in TMPDIR): the replay
  // runs it under a path of the same length, so Google Benchmark's copy of its argv[0] allocates
  // as it did and memcpy's count does not move.
  const std::string measured = dir_ + "/measured/in/a/build/directory/gbench_basic";
  fs::create_directories(fs::path(measured).parent_path());
  fs::copy_file(GBENCH_BASIC, measured);
  Result run = Tare(
      {"run", "--instrument", "sim", "--samples", "2", "--filter", "BM_StringCopy", "--store", store, "--", measured});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const json original = Export(store);
  EXPECT_EQ(original["schema"], "tare.run/2");
  ASSERT_FALSE(original["artifacts"].empty()) << "sim runs keep a profile per benchmark";
  ExpectImportRoundTrips(store, "sim-run");

  const std::string bundle = dir_ + "/evidence.tar.gz";
  Result b = Tare({"bundle", "--run", "latest", "--store", store, "-o", bundle});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  Result v = Tare({"bundle", "verify", bundle});
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("OK"), std::string::npos) << v.out;
  std::vector<std::string> names;
  for (const auto& m : ReadMembers(bundle)) names.push_back(m.name);
  EXPECT_EQ(names[0], "manifest.json");
  for (const char* want : {"manifest.sha256", "run.json", "fingerprint.json", "plan.json", "bin/target"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  EXPECT_NE(std::find_if(names.begin(), names.end(), [](const std::string& n) { return n.rfind("profiles/", 0) == 0; }),
            names.end());
  ExpectEveryTamperRefused(bundle);
  ExpectSwappedBuildRefused(bundle);

  // Replayed where nothing exists yet: the default store is created there.
  const std::string empty = dir_ + "/empty";
  fs::create_directories(empty);
  Result r = Tare({"replay", bundle}, empty);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("replays run 1 (imported from the bundle"), std::string::npos) << r.out;
  // The same host: its hard keys agree (load and free memory, soft keys, move between runs).
  EXPECT_NE(r.out.find("hosts: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not comparable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BM_StringCopy/64"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("may count a few instructions differently"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("may count a few instructions differently"), std::string::npos) << r.err;
  const std::string sha = original["executables"][0]["sha256"];
  const json replayed = Export(empty + "/.tare/tare.db");
  const std::string placed = replayed["run"]["options"]["argv"][0];
  EXPECT_NE(placed, measured);
  EXPECT_EQ(placed.size(), measured.size()) << placed;
  EXPECT_EQ(fs::path(placed).filename(), "gbench_basic");
  Result s = Tare({"spread", "--executable", sha.substr(0, 12), "--json", "-"}, empty);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  ExpectIrRepeated(json::parse(s.out), 2);  // BM_StringCopy/64 and /4096
  Result console = Tare({"spread", "--executable", sha.substr(0, 12)}, empty);
  EXPECT_NE(console.out.find("sim.Ir: all 2 identical across 2 runs (spread 0.000%)"), std::string::npos)
      << console.out;

  // The replay is tagged with the run it replays; replaying again adds a run, not the original.
  Result runs = Tare({"runs"}, empty);
  EXPECT_NE(runs.out.find("replay-of=" + Export(store)["run"]["uid"].get<std::string>()), std::string::npos)
      << runs.out;
}

// A `tare ab --instrument sim` cohort: export/import keeps the campaign, lock, looks and checks;
// its bundle carries both arms' builds; the replay is a new cohort tagged with the lock, shown
// side by side, and every arm's sim.Ir repeats.
TEST_F(BundleE2E, AbCohortRoundTripsAndReplays) {
  // A store deeper than the replay's (`empty/.tare`): the replay pads its copies' paths to match.
  fs::create_directories(dir_ + "/s/in/a/deeper/directory");
  const std::string store = dir_ + "/s/in/a/deeper/directory/tare.db";
  Result ab =
      Tare({"ab", "--instrument", "sim", "--base", TOGGLE_OUTLINE, "--head", TOGGLE_INLINE, "--null", "--samples", "6",
            "--cap", "6", "--bound", "max(sim.Ir, head) <= 1000000", "--store", store, "--", "2000"});
  ASSERT_TRUE(ab.exit_code == 0 || ab.exit_code == 1 || ab.exit_code == 3) << ab.out << ab.err;
  const json original = Export(store);
  ASSERT_FALSE(original["campaign"].is_null());
  EXPECT_FALSE(original["campaign"]["looks"].empty());
  EXPECT_FALSE(original["campaign"]["checks"].empty());
  const json& b0 = original["benchmarks"][0];
  ASSERT_EQ(b0["summaries"].size(), 3u) << "base, head and null summarised apart";
  ExpectImportRoundTrips(store, "ab");

  const std::string bundle = dir_ + "/cohort.tar.gz";
  Result b = Tare({"bundle", "--store", store, "-o", bundle});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  std::vector<std::string> names;
  for (const auto& m : ReadMembers(bundle)) names.push_back(m.name);
  for (const char* want : {"campaign.json", "lock.json", "bin/base", "bin/head"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  }
  EXPECT_EQ(std::find(names.begin(), names.end(), "bin/null"), names.end()) << "null is base's build: one member";

  const std::string empty = dir_ + "/empty";
  fs::create_directories(empty);
  Result r = Tare({"replay", bundle}, empty);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Side by side"), std::string::npos) << r.out;
  // The replay's copies run from paths as long as the original's, so argv[0] allocates alike.
  EXPECT_EQ(r.out.find("may count a few instructions differently"), std::string::npos) << r.out;
  const json replayed = Export(empty + "/.tare/tare.db");
  const json& was = original["campaign"]["cohort"]["lock"]["executables"];
  const json& now = replayed["campaign"]["cohort"]["lock"]["executables"];
  ASSERT_EQ(was.size(), now.size()) << replayed["campaign"]["cohort"].dump(1);
  for (size_t i = 0; i < was.size(); ++i) {
    const std::string then_path = was[i]["path"], now_path = now[i]["path"];
    EXPECT_NE(now_path, then_path);
    EXPECT_EQ(now_path.size(), then_path.size()) << now_path << " vs " << then_path;
  }
  const std::string lock = original["campaign"]["cohort"]["lock_sha256"];
  Result s = Tare({"spread", "--lock", lock.substr(0, 12), "--json", "-"}, empty);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  // Not exact for a cohort: its arms run from copies under the replay's own store, and the
  // process's start-up (the loader, the environment's size moving the stack with ASLR off) reads a
  // few instructions more or less: 5 to 9 of 355,039 (0.0014-0.0025%) seen from a fresh clone.
  // docs/bundle.md says so; a `tare run` replay (above) is exact.
  ExpectIrRepeated(json::parse(s.out), 3, 0.01);  // base, head, null

  // Replayed into a store deeper than the original's, the copies' paths cannot be as short: a sim
  // replay says so.
  const std::string deeper = dir_ + "/i/in/a/store/directory/deeper/than/the/original/one";
  fs::create_directories(deeper);
  Result longer = Tare({"replay", "--store", deeper + "/tare.db", bundle}, empty);
  ASSERT_EQ(longer.exit_code, 0) << longer.out << longer.err;
  EXPECT_NE(longer.out.find("may count a few instructions differently"), std::string::npos) << longer.out;
  EXPECT_NE(longer.out.find("a store in a directory with a shorter path"), std::string::npos) << longer.out;
}

TEST_F(BundleE2E, RefusesToOverwriteWhatIsNotABundleOrTheStore) {
  const std::string store = dir_ + "/s/tare.db";
  Result run = Tare({"run", "--samples", "1", "--warmup", "0", "--store", store, "--", "/bin/true"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string precious = dir_ + "/notes.txt";
  { std::ofstream(precious) << "mine"; }
  Result b = Tare({"bundle", "--store", store, "-o", precious});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("is not a bundle tare wrote"), std::string::npos) << b.err;
  EXPECT_EQ(tare::e2e::Slurp(precious), "mine");
  Result onto_store = Tare({"bundle", "--store", store, "-o", store});
  EXPECT_EQ(onto_store.exit_code, 2);
  EXPECT_NE(onto_store.err.find("store"), std::string::npos) << onto_store.err;
  // Its own bundle it replaces.
  ASSERT_EQ(Tare({"bundle", "--store", store, "-o", dir_ + "/b.tar.gz"}).exit_code, 0);
  Result again = Tare({"bundle", "--store", store, "-o", dir_ + "/b.tar.gz"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

// Issue 27, item 5: what a replay sets is shown before anything runs, and a variable the dynamic
// loader acts on is refused unless the user trusts the bundle (--trust-env). A real run set it
// (`tare run --env`), as an allocator experiment would set LD_PRELOAD.
TEST_F(BundleE2E, LoaderVariablesInABundleNeedTrustEnv) {
  const std::string store = dir_ + "/s/tare.db";
  Result run = Tare({"run", "-n", "1", "-w", "0", "--env", "LD_BIND_NOW=1", "--env", "COLUMNS=7", "--store", store,
                     "--", "/bin/true", "--flag"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string bundle = dir_ + "/env.tar.gz";
  ASSERT_EQ(Tare({"bundle", "--run", "latest", "--store", store, "-o", bundle}).exit_code, 0);
  const std::string there = dir_ + "/there";
  fs::create_directories(there);
  Result refused = Tare({"replay", bundle}, there);
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("the bundle sets LD_BIND_NOW=1 for the programs it runs"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("--trust-env"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.err.find("COLUMNS"), std::string::npos) << refused.err;  // not a loader variable
  EXPECT_EQ(Tare({"runs"}, there).out.find("replay-of"), std::string::npos) << "nothing was run";

  Result trusted = Tare({"replay", "--trust-env", bundle}, there);
  ASSERT_EQ(trusted.exit_code, 0) << trusted.out << trusted.err;
  EXPECT_NE(trusted.err.find("the bundle sets the environment: LD_BIND_NOW=1 COLUMNS=7"), std::string::npos)
      << trusted.err;
  EXPECT_NE(trusted.err.find("the bundle's arguments: --flag"), std::string::npos) << trusted.err;
}

TEST_F(BundleE2E, HostileArchivesAreRefusedAndNothingRuns) {
  WriteMembers(dir_ + "/evil.tar.gz", {{"manifest.json", "{}"}, {"../escaped", "x"}});
  Result v = Tare({"bundle", "verify", dir_ + "/evil.tar.gz"});
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_NE(v.err.find("member '../escaped' refused"), std::string::npos) << v.err;
  EXPECT_FALSE(fs::exists(fs::path(dir_).parent_path() / "escaped"));

  const std::string empty = dir_ + "/empty";
  fs::create_directories(empty);
  Result r = Tare({"replay", dir_ + "/evil.tar.gz"}, empty);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing was run"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(empty + "/.tare")) << "no store is created for a refused bundle";

  { std::ofstream(dir_ + "/junk.json") << "[1, 2]"; }
  Result i = Tare({"import", dir_ + "/junk.json", "--store", dir_ + "/i/tare.db"});
  EXPECT_EQ(i.exit_code, 2);
  EXPECT_NE(i.err.find("neither a `tare export` JSON document nor a bundle"), std::string::npos) << i.err;
  Result s = Tare({"spread", "--executable", "xyz", "--store", dir_ + "/nostore/tare.db"});
  EXPECT_EQ(s.exit_code, 2);
}

}  // namespace

namespace {

// Issue 23, item 3: a host's identity is recomputed from the fingerprint's hard keys wherever a
// run comes from outside — an import, a merge — and never taken from what the document says.
TEST_F(BundleE2E, AnEditedFingerprintIsNeverTakenForTheSameHost) {
  const std::string store = dir_ + "/s/tare.db";
  Result run = Tare({"run", "-q", "-n", "2", "-w", "0", "--store", store, "--", "/bin/true"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json original = Export(store);
  auto edit_key = [](json doc) {
    for (auto& k : doc["fingerprint"]["keys"]) {
      if (k["hard"].get<bool>()) {
        k["value"] = "Another CPU (edited)";
        break;
      }
    }
    return doc;
  };
  auto write = [&](const json& doc, const std::string& name) {
    std::ofstream(dir_ + "/" + name) << doc.dump();
    return dir_ + "/" + name;
  };

  // A hard key edited, the digests kept: refused, with what disagrees.
  const std::string kept = write(edit_key(original), "kept.json");
  Result refused = Tare({"import", kept, "--store", dir_ + "/kept/tare.db"});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("hard_digest does not match the hard keys"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir_ + "/kept/tare.db"));
  // Only the run's stated digest left (the fingerprint's own taken out): refused all the same.
  json stated = edit_key(original);
  stated["fingerprint"].erase("hard_digest");
  Result refused2 = Tare({"import", write(stated, "stated.json"), "--store", dir_ + "/kept/tare.db"});
  EXPECT_EQ(refused2.exit_code, 2) << refused2.out;
  EXPECT_NE(refused2.err.find("is not the digest of its fingerprint's hard keys"), std::string::npos) << refused2.err;

  // Both digests taken out: imported under the digest of the keys it has — another host, which
  // compare refuses to set beside the original.
  json bare = edit_key(original);
  bare["fingerprint"].erase("hard_digest");
  bare["run"].erase("fingerprint_digest");
  bare["run"]["uid"] = std::string(32, 'e');
  Result imported = Tare({"import", write(bare, "bare.json"), "--store", store});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const json back = Export(store);
  EXPECT_NE(back["run"]["fingerprint_digest"], original["run"]["fingerprint_digest"]);
  Result cmp = Tare({"compare", "1", "2", "--store", store});
  EXPECT_EQ(cmp.exit_code, 2) << cmp.out;
  EXPECT_NE(cmp.err.find("measured on different hosts"), std::string::npos) << cmp.err;
  // tare spread of the executable: one row per host type, never one min/max over both.
  const std::string sha = original["executables"][0]["sha256"];
  Result spread = Tare({"spread", "--executable", sha.substr(0, 12), "--json", "-", "--store", store});
  ASSERT_EQ(spread.exit_code, 0) << spread.err;
  const json rows = json::parse(spread.out)["rows"];
  std::map<std::string, std::set<std::string>> hosts_of_metric;
  for (const auto& row : rows) {
    EXPECT_EQ(row["runs"], 1) << row;
    hosts_of_metric[row["metric"]].insert(row["host"].get<std::string>());
  }
  ASSERT_FALSE(hosts_of_metric.empty()) << spread.out;
  for (const auto& [metric, hosts] : hosts_of_metric) EXPECT_EQ(hosts.size(), 2u) << metric;

  // A store whose key was edited in place (its digest column kept): merge refuses that run.
  const std::string edited = dir_ + "/edited.db";
  fs::copy_file(store, edited);
  std::string hard_value;
  for (const auto& k : original["fingerprint"]["keys"]) {
    if (k["hard"].get<bool>() && hard_value.empty()) hard_value = k["value"].get<std::string>();
  }
  ASSERT_FALSE(hard_value.empty());
  ASSERT_EQ(hard_value.find_first_of("'\"\\"), std::string::npos) << hard_value;
  const std::string sql = "sqlite3 '" + edited + "' \"UPDATE runs SET fingerprint = replace(fingerprint, '\\\"" +
                          hard_value + "\\\"', '\\\"Edited\\\"') WHERE id = 1\"";
  ASSERT_EQ(std::system(sql.c_str()), 0);
  Result merged = Tare({"merge", dir_ + "/all.db", edited});
  EXPECT_NE(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.err.find("copying run 1"), std::string::npos) << merged.err;
  EXPECT_NE(merged.err.find("edited or damaged"), std::string::npos) << merged.err;
}

}  // namespace
