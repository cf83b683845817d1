// Issue 47, item 2: what is stored reads back as it was shown. For real `tare ab` cohorts of several
// kinds (time with two heads, gates, bounds and the cross-check under valgrind; sim with the exact
// plan; --layouts; a broken benchmark; --instrument mem), the ledger and tare.ab/1 JSON that
// `tare bundle` rebuilds from the store, and the HTML page `tare report --run` draws from it, equal
// the ones `tare ab` printed and wrote (--html); so do those
// rebuilt after `tare import` of the bundle into a fresh store, and the verdicts after `tare replay`
// imports it. Before schema version 7 the store kept 16 of a verdict's 24 fields: a rebuilt ledger
// printed `PASS` for `PASS ≤ −0.24%, changed`, raw nanoseconds for `20.1 ms → 19.8 ms`, and no
// cross-check; result.json had `unit: ""`, `pass_bound: null`, `cross_check: null`.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../tare_process.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tare::e2e::Result;

std::string Member(const std::string& bundle, const std::string& name) {
  archive* a = archive_read_new();
  archive_read_support_filter_gzip(a);
  archive_read_support_format_tar(a);
  EXPECT_EQ(archive_read_open_filename(a, bundle.c_str(), 1 << 16), ARCHIVE_OK);
  archive_entry* e = nullptr;
  std::string content;
  bool found = false;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    if (name != archive_entry_pathname(e)) continue;
    content.assign(static_cast<size_t>(archive_entry_size(e)), '\0');
    if (!content.empty()) archive_read_data(a, content.data(), content.size());
    found = true;
    break;
  }
  archive_read_free(a);
  EXPECT_TRUE(found) << name << " in " << bundle;
  return content;
}

class StoredEqualsLiveE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tare-stored-live-e2e-XXXXXX";
    dir_ = mkdtemp(tmpl);
    for (const char* d : {"s", "i", "empty"}) fs::create_directories(dir_ + "/" + d);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  Result Tare(std::vector<std::string> args, const std::string& cwd = "") {
    return tare::e2e::RunTare(TARE_BIN, cwd.empty() ? dir_ : cwd, std::move(args));
  }
  // "" when `got` is `want`; else the lines where they first differ (a whole ledger or document in a
  // failure message hides the difference).
  static std::string Difference(const std::string& got, const std::string& want) {
    if (got == want) return "";
    std::istringstream g(got), w(want);
    std::string gl, wl, out;
    int line = 0, shown = 0;
    for (;;) {
      const bool more_g = static_cast<bool>(std::getline(g, gl)), more_w = static_cast<bool>(std::getline(w, wl));
      ++line;
      if (!more_g && !more_w) break;
      if (more_g && more_w && gl == wl) continue;
      out += "line " + std::to_string(line) + ":\n  rebuilt: " + (more_g ? gl : "<end>") +
             "\n  live:    " + (more_w ? wl : "<end>") + "\n";
      if (++shown == 6) break;
    }
    return out;
  }

  // Runs the cohort `args` (without --store/--json), then checks that the ledger and JSON rebuilt
  // from its store, from its bundle imported into a fresh store, and (with `replay`) from the store
  // `tare replay` imported it into equal the live ones.
  void ExpectStoredEqualsLive(std::vector<std::string> args, bool replay = false) {
    const std::string store = dir_ + "/s/tare.db";
    const std::vector<std::string> front = {"ab",     "--store",          store, "--json", dir_ + "/live.json",
                                            "--html", dir_ + "/live.html"};
    args.insert(args.begin(), front.begin(), front.end());
    Result live = Tare(args);
    ASSERT_TRUE(live.exit_code == 0 || live.exit_code == 1 || live.exit_code == 3) << live.out << live.err;
    // Piped: the whole ledger on stdout. With --html, a sim cohort's ledger also says which file this
    // invocation wrote its flame graphs to (`live.html`): where this run put its outputs, not part of
    // the cohort, so it is not in the store and is left out here.
    const std::string live_ledger = std::regex_replace(
        live.out, std::regex("\n\n\\*\\*Flame graphs\\.\\*\\* [^\n]*`live\\.html`, under each cell\\.\n\n"), "\n");
    const json live_json = json::parse(tare::e2e::Slurp(dir_ + "/live.json"));
    ASSERT_FALSE(live_ledger.empty());
    // The bundle rebuilds the ledger from the store only when tare ab wrote none beside it.
    fs::remove_all(dir_ + "/s/ledgers");

    Result b = Tare({"bundle", "--store", store, "-o", dir_ + "/cohort.tar.gz"});
    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
    EXPECT_EQ(Difference(Member(dir_ + "/cohort.tar.gz", "ledger.md"), live_ledger), "")
        << "ledger rebuilt from the store";
    EXPECT_EQ(Difference(json::parse(Member(dir_ + "/cohort.tar.gz", "result.json")).dump(1), live_json.dump(1)), "")
        << "result.json rebuilt from the store";

    // The cohort's page, drawn from the store by `tare report --run`, is the one `tare ab --html` wrote.
    const std::string live_html = tare::e2e::Slurp(dir_ + "/live.html");
    ASSERT_FALSE(live_html.empty());
    Result page = Tare({"report", "--run", "latest", "--store", store, "-o", dir_ + "/stored.html"});
    ASSERT_EQ(page.exit_code, 0) << page.out << page.err;
    EXPECT_EQ(Difference(tare::e2e::Slurp(dir_ + "/stored.html"), live_html), "") << "HTML page drawn from the store";

    // Imported into a fresh store, bundled again from there.
    Result i = Tare({"import", dir_ + "/cohort.tar.gz", "--store", dir_ + "/i/tare.db"});
    ASSERT_EQ(i.exit_code, 0) << i.out << i.err;
    Result bi = Tare({"bundle", "--store", dir_ + "/i/tare.db", "-o", dir_ + "/imported.tar.gz"});
    ASSERT_EQ(bi.exit_code, 0) << bi.out << bi.err;
    // (The arms' paths are the lock's, as measured: the same in every store.)
    EXPECT_EQ(Difference(Member(dir_ + "/imported.tar.gz", "ledger.md"), live_ledger), "")
        << "ledger rebuilt after import";
    EXPECT_EQ(Difference(json::parse(Member(dir_ + "/imported.tar.gz", "result.json")).dump(1), live_json.dump(1)), "")
        << "result.json rebuilt after import";
    Result ipage = Tare({"report", "--run", "latest", "--store", dir_ + "/i/tare.db", "-o", dir_ + "/imported.html"});
    ASSERT_EQ(ipage.exit_code, 0) << ipage.out << ipage.err;
    EXPECT_EQ(Difference(tare::e2e::Slurp(dir_ + "/imported.html"), live_html), "") << "HTML page after import";
    if (!replay) return;

    // `tare replay` imports the original, then measures it again as the campaign's next cohort: the
    // original's verdicts, checks and notes rebuilt from that store are the live ones (its cohort
    // history now lists the replay too).
    const std::string empty = dir_ + "/empty";
    Result r = Tare({"replay", dir_ + "/cohort.tar.gz"}, empty);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    Result br = Tare({"bundle", "--run", "1", "--store", empty + "/.tare/tare.db", "-o", dir_ + "/replayed.tar.gz"});
    ASSERT_EQ(br.exit_code, 0) << br.out << br.err;
    const json replayed = json::parse(Member(dir_ + "/replayed.tar.gz", "result.json"));
    for (const char* key : {"comparisons", "checks", "notes", "outcome", "gate_outcome", "layout_rows"}) {
      EXPECT_EQ(Difference(replayed[key].dump(1), live_json[key].dump(1)), "") << key;
    }
  }

  std::string dir_;
};

// Time, two heads (a 5% slower one and a 3% faster one), a gate and a bound, and the cross-check of
// each time FAIL or gain under valgrind: the bound a PASS certifies, the units of the medians, the
// cross-check section, the check units.
TEST_F(StoredEqualsLiveE2E, TimeCohortWithTwoHeadsGatesBoundsAndTheCrossCheck) {
  const std::string k = AB_KNOB_DIR;
  ExpectStoredEqualsLive({"--base", k + "/ab_knob_base", "--head", k + "/ab_knob_plus5", "--head",
                          k + "/ab_knob_minus3", "--gate", "peak_rss_bytes(head) <= 2 * peak_rss_bytes(base)",
                          "--bound", "max(perf.task_clock_ns, head) <= 1s", "--", "--work", "12"});
}

// Sim, the exact plan, a null arm and a bound; then replayed from its bundle.
TEST_F(StoredEqualsLiveE2E, SimCohortExactPlanAndItsReplay) {
  ExpectStoredEqualsLive({"--instrument", "sim", "--base", TOGGLE_OUTLINE, "--head", TOGGLE_INLINE, "--null",
                          "--samples", "6", "--cap", "6", "--bound", "max(sim.Ir, head) <= 1000000", "--", "2000"},
                         /*replay=*/true);
}

// --layouts: the layout table of a cohort whose change depends on where the stack sits.
TEST_F(StoredEqualsLiveE2E, LayoutsCohort) {
  const std::string d = STACK_ALIGN_DIR;
  ExpectStoredEqualsLive({"--instrument", "sim", "--base", d + "/stack_align_base", "--head",
                          d + "/stack_align_shifted", "--null", "--layouts", "2", "--samples", "6", "--cap", "6", "--",
                          "300"});
}

// A Google Benchmark suite whose head crashes in one benchmark: the broken cell, its error and fix.
TEST_F(StoredEqualsLiveE2E, BrokenCellCohort) {
  fs::create_directories(dir_ + "/data");
  std::ofstream(dir_ + "/data/broken_bench_data.txt") << "data\n";
  ExpectStoredEqualsLive({"--base", BROKEN_BENCH_DIR "/broken_bench_base", "--head",
                          BROKEN_BENCH_DIR "/broken_bench_crash", "--null", "--samples", "6", "--cap", "6",
                          "--gbench-min-time", "5ms", "--cwd", dir_ + "/data"});
}

// --instrument mem: allocation counts, a higher-is-better-free exact cohort in bytes and counts.
TEST_F(StoredEqualsLiveE2E, MemCohort) {
  ExpectStoredEqualsLive({"--instrument", "mem", "--base", SAME_WORK_DIR "/same_work_shuffled", "--head",
                          SAME_WORK_DIR "/same_work_sorted", "--filter", "BM_Branchy"});
}

}  // namespace
