// Issue 47, item 2: what is stored reads back as it was shown. For real `tare ab` cohorts of several
// kinds (time with two heads, gates, bounds and the cross-check under valgrind; sim with the exact
// plan; --layouts; a broken benchmark; --instrument mem), run on a terminal, the ledger and tare.ab/1
// JSON that `tare bundle` and `tare report --format` rebuild from the store, the HTML page `tare
// report --run` draws from it and the terminal summary `tare report --format summary` prints equal
// the ones `tare ab` printed and wrote (--html, --json); so do those
// rebuilt after `tare import` of the bundle into a fresh store, and the verdicts after `tare replay`
// imports it. Before schema version 7 the store kept 16 of a verdict's 24 fields: a rebuilt ledger
// printed `PASS` for `PASS ≤ −0.24%, changed`, raw nanoseconds for `20.1 ms → 19.8 ms`, and no
// cross-check; result.json had `unit: ""`, `pass_bound: null`, `cross_check: null`.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
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

  static std::string Quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  }
  // `tare ARGS` with its stdout on a pseudo-terminal (util-linux's `script`), as a user at a terminal
  // runs it: out is what the terminal showed (carriage returns dropped), err the stderr, kept apart.
  Result TareOnATerminal(const std::vector<std::string>& args) {
    std::string command = Quoted(TARE_BIN);
    for (const auto& a : args) command += " " + Quoted(a);
    command += " 2>" + Quoted(dir_ + "/tty.err");
    const std::string shell =
        "cd " + Quoted(dir_) + " && script -qec " + Quoted(command) + " /dev/null > " + Quoted(dir_ + "/tty.out");
    const int status = std::system(shell.c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    r.out = std::regex_replace(tare::e2e::Slurp(dir_ + "/tty.out"), std::regex("\r"), "");
    r.err = tare::e2e::Slurp(dir_ + "/tty.err");
    return r;
  }
  // `s` without its last line.
  static std::string AllButTheLastLine(const std::string& s) {
    const size_t end = s.find_last_of('\n', s.empty() ? 0 : s.size() - 2);
    return end == std::string::npos ? "" : s.substr(0, end + 1);
  }

  // Runs the cohort `args` (without --store/--json) on a terminal, then checks that the ledger, the
  // JSON, the page and the terminal summary rebuilt from its store, from its bundle imported into a
  // fresh store, and (with `replay`) from the store `tare replay` imported it into equal the live ones.
  void ExpectStoredEqualsLive(std::vector<std::string> args, bool replay = false) {
    const std::string store = dir_ + "/s/tare.db";
    const std::vector<std::string> front = {"ab",     "--store",          store, "--json", dir_ + "/live.json",
                                            "--html", dir_ + "/live.html"};
    args.insert(args.begin(), front.begin(), front.end());
    Result live = TareOnATerminal(args);
    ASSERT_TRUE(live.exit_code == 0 || live.exit_code == 1 || live.exit_code == 3) << live.out << live.err;
    // On a terminal: the summary on stdout, the whole ledger in the store's ledgers/ (the one file there).
    ASSERT_NE(live.out.find("Full ledger (lock, host, plan, every look): " + dir_ + "/s/ledgers/cohort-"),
              std::string::npos)
        << live.out << live.err;
    std::string ledger_file;
    for (const auto& e : fs::directory_iterator(dir_ + "/s/ledgers")) ledger_file = e.path().string();
    // With --html, a sim cohort's ledger also says which file this invocation wrote its flame graphs
    // to (`live.html`): where this run put its outputs, not part of the cohort, so it is not in the
    // store and is left out here.
    const std::string live_ledger = std::regex_replace(
        tare::e2e::Slurp(ledger_file),
        std::regex("\n\n\\*\\*Flame graphs\\.\\*\\* [^\n]*`live\\.html`, under each cell\\.\n\n"), "\n");
    const json live_json = json::parse(tare::e2e::Slurp(dir_ + "/live.json"));
    ASSERT_FALSE(live_ledger.empty());

    // `tare report --format`: each delivery rebuilt from the store. The summary names the ledger file
    // tare ab wrote, which is still there.
    Result summary = Tare({"report", "--run", "latest", "--store", store, "--format", "summary"});
    ASSERT_EQ(summary.exit_code, 0) << summary.err;
    EXPECT_EQ(Difference(summary.out, live.out), "") << "terminal summary rebuilt from the store";
    Result ledger = Tare({"report", "--run", "latest", "--store", store, "--format", "ledger"});
    ASSERT_EQ(ledger.exit_code, 0) << ledger.err;
    EXPECT_EQ(Difference(ledger.out, live_ledger), "") << "ledger rebuilt by tare report";
    Result doc = Tare({"report", "--run", "latest", "--store", store, "--format", "json"});
    ASSERT_EQ(doc.exit_code, 0) << doc.err;
    EXPECT_EQ(Difference(json::parse(doc.out).dump(1), live_json.dump(1)), "") << "JSON rebuilt by tare report";

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
    // The imported store has no ledger file beside it: the summary's last line says how to rebuild it.
    Result isummary = Tare({"report", "--run", "latest", "--store", dir_ + "/i/tare.db", "--format", "summary"});
    ASSERT_EQ(isummary.exit_code, 0) << isummary.err;
    EXPECT_EQ(Difference(AllButTheLastLine(isummary.out), AllButTheLastLine(live.out)), "")
        << "terminal summary after import";
    EXPECT_TRUE(std::regex_search(isummary.out, std::regex("Full ledger \\(lock, host, plan, every look\\): `tare "
                                                           "report --run [0-9]+ --format ledger` rebuilds it\n$")))
        << isummary.out;
    Result iledger = Tare({"report", "--run", "latest", "--store", dir_ + "/i/tare.db", "--format", "ledger"});
    ASSERT_EQ(iledger.exit_code, 0) << iledger.err;
    EXPECT_EQ(Difference(iledger.out, live_ledger), "") << "ledger rebuilt by tare report after import";
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

// `tare report --format` other than html is a cohort's: a plain run, --compare and an unknown
// format are refused with what to use instead (exit 2), and the store is left as it was.
TEST_F(StoredEqualsLiveE2E, FormatsOtherThanHtmlAreACohorts) {
  const std::string store = dir_ + "/s/tare.db";
  Result run = Tare({"run", "--store", store, "-r", "3", "true"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string before = tare::e2e::Slurp(store);
  Result ledger = Tare({"report", "--run", "latest", "--store", store, "--format", "ledger"});
  EXPECT_EQ(ledger.exit_code, 2);
  EXPECT_NE(ledger.err.find("--format ledger: run 1 is a `tare run` run, not a `tare ab` cohort; its page is --format "
                            "html, everything stored for it `tare export --run 1`"),
            std::string::npos)
      << ledger.err;
  EXPECT_EQ(ledger.out, "");
  Result compare = Tare({"report", "--compare", "1", "1", "--store", store, "--format", "json"});
  EXPECT_EQ(compare.exit_code, 2);
  EXPECT_NE(compare.err.find("--format json is a `tare ab` cohort's (with --run)"), std::string::npos) << compare.err;
  Result unknown = Tare({"report", "--run", "latest", "--store", store, "--format", "xml"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("xml not in {html,ledger,json,summary}"), std::string::npos) << unknown.err;
  EXPECT_EQ(tare::e2e::Slurp(store), before) << "a refused report leaves the store as it was";
}

}  // namespace
