// `tare report` and `tare ab --html` on real runs, each page opened by a real headless browser:
// the browser must load it without an error, its DOM must show every benchmark name as text (the
// hostile `<script>` name too, with no element made of it), nothing may reach the console (the
// page has no script; a script that slipped in would log a Content-Security-Policy violation), and
// the screenshot must be a drawn page, not a blank one (docs/report.md, "The browser test").
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../tare_process.h"
#include "png_pixels.h"

namespace {

namespace fs = std::filesystem;
using tare::e2e::Result;
using tare::e2e::Slurp;

const std::string kHostile = "<script>alert(1)</script>";

// Text as chromium's --dump-dom serialises a text node: &, <, > escaped (quotes are not).
std::string DomText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else {
      out += c;
    }
  }
  return out;
}

// Debian's chromium, or $TARE_CHROMIUM; "" when there is none.
std::string FindChromium() {
  if (const char* env = std::getenv("TARE_CHROMIUM"); env != nullptr && *env != '\0') return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path p = fs::path(dir) / name;
      if (access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return "";
}

struct Page {
  int exit_code = -1;
  std::string dom;
  std::vector<std::string> console;  // lines the page wrote to the console (none expected)
  tare::e2e::PngStats png;
  std::string log;
};

class ReportE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "report_e2e_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  Result Tare(std::vector<std::string> args) { return tare::e2e::RunTare(TARE_BIN, dir_, std::move(args)); }

  // Opens `file` (in dir_) in headless chromium: the DOM after loading, a 1200x2000 screenshot,
  // and the browser's log, which carries every console message as an "INFO:CONSOLE" line.
  Page Browse(const std::string& file) {
    Page page;
    const std::string chromium = FindChromium();
    if (chromium.empty()) {
      ADD_FAILURE() << "chromium is not installed; the HTML reports are tested in a real browser. Install it "
                       "with `scripts/deps.sh chromium` (scripts/test.sh does), or set TARE_CHROMIUM to one.";
      return page;
    }
    const std::string png = dir_ + "/" + file + ".png";
    const std::string dom = dir_ + "/" + file + ".dom";
    const std::string log = dir_ + "/" + file + ".log";
    std::vector<std::string> args = {"timeout",
                                     "-k",
                                     "5",
                                     "90",
                                     chromium,
                                     "--headless=new",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--hide-scrollbars",
                                     "--no-first-run",
                                     "--disable-extensions",
                                     "--user-data-dir=" + dir_ + "/chromium-profile",
                                     "--enable-logging=stderr",
                                     "--v=0",
                                     "--window-size=1200,2000",
                                     "--screenshot=" + png,
                                     "--dump-dom",
                                     "file://" + dir_ + "/" + file};
    pid_t pid = fork();
    if (pid == 0) {
      if (!freopen(dom.c_str(), "w", stdout) || !freopen(log.c_str(), "w", stderr)) _exit(97);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp(argv[0], argv.data());
      _exit(98);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    page.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    page.dom = Slurp(dom);
    page.log = Slurp(log);
    std::stringstream lines(page.log);
    for (std::string line; std::getline(lines, line);) {
      if (line.find(":CONSOLE") != std::string::npos) page.console.push_back(line);
    }
    page.png = tare::e2e::AnalysePng(Slurp(png));
    return page;
  }

  // The layout of `file` at `width` x 900 CSS pixels, measured in the browser (issue 23, item 6): a
  // copy of the page with a script that measures it — the report itself carries none — writes what
  // it finds into the DOM. Each finding is one line: the page wider than the window, a table whose
  // columns hide behind a scroll bar (at desktop widths; a phone may scroll a table), SVG text cut
  // by its plot's edge, a table cell squeezed to a few characters a line. The screenshot is kept
  // in $TARE_ARTIFACTS (CI uploads it) as FILE-WIDTH.png.
  std::vector<std::string> LayoutProblems(const std::string& file, int width) {
    const bool phone = width < 600;
    const std::string script = std::string(R"(<script>
(() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const de = document.documentElement;
  if (de.scrollWidth > vw + 1) {
    // Which part of the page: each child of <main> alone, the others hidden.
    const kids = [...(document.querySelector('main') || document.body).children];
    const culprits = [];
    kids.forEach((k, i) => {
      const saved = kids.map(x => x.style.display);
      kids.forEach((x, j) => { if (j !== i) x.style.display = 'none'; });
      if (de.scrollWidth > vw + 1) culprits.push('<' + k.tagName.toLowerCase() + '> ' + (k.innerText || '').slice(0, 40));
      kids.forEach((x, j) => { x.style.display = saved[j]; });
    });
    out.push('page wider than the window: ' + de.scrollWidth + ' > ' + vw + ', from ' + culprits.join('; '));
  }
  for (const t of document.querySelectorAll('table')) {
    if ()") + (phone ? "false && " : "") +
                               R"(t.scrollWidth > t.clientWidth + 1)
      out.push('table scrolls: ' + t.scrollWidth + ' > ' + t.clientWidth + ': ' + t.innerText.slice(0, 50));
    const r = t.getBoundingClientRect();
    if (r.right > vw + 1) out.push('table past the window: ' + t.innerText.slice(0, 50));
  }
  // Where the page overflows: the outermost elements that reach past the window.
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.right > vw + 1 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > vw + 1) &&
        !(e.parentElement && (e.parentElement.closest('table') || e.parentElement.closest('svg'))))
      out.push('past the window: <' + e.tagName.toLowerCase() + '> ' + (e.innerText || '').slice(0, 40));
  }
  // An svg clips what lies outside its box (rotated text included: client rectangles are drawn ones).
  for (const svg of document.querySelectorAll('svg')) {
    const s = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width > 0 && (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1))
        out.push('svg text clipped: "' + t.textContent + '"');
    }
  }
  // A short name — a metric, a digest — broken across lines (`gb.real_time_n|s`, issue 44).
  for (const c of document.querySelectorAll('code')) {
    const t = c.textContent;
    if ()" + (phone ? "false && " : "") +
                               R"(!/\s/.test(t) && t.length <= 24 && c.getClientRects().length > 1)
      out.push('name broken across lines: ' + t);
  }
  // The site index on a phone: a row a glance tall, the trend on screen (issue 44: ~250 px rows,
  // the trend columns off-screen at 500 px).
  for (const tr of document.querySelectorAll('table.site tr')) {
    if ()" + (phone ? "" : "false && ") +
                               R"(tr.getBoundingClientRect().height > 160)
      out.push('site row ' + Math.round(tr.getBoundingClientRect().height) + ' px tall: ' + tr.innerText.slice(0, 40));
  }
  for (const td of document.querySelectorAll('table.site td.trend')) {
    if (td.getBoundingClientRect().right > vw + 1) out.push('site trend off-screen: ' + td.parentElement.innerText.slice(0, 40));
  }
  for (const c of document.querySelectorAll('td, th')) {
    const text = c.innerText.trim();
    if ()" + (phone ? "false && " : "") +
                               R"(text.length >= 24 && c.getBoundingClientRect().width < 90)
      out.push('squeezed cell (' + Math.round(c.getBoundingClientRect().width) + ' px): ' + text.slice(0, 40));
  }
  const pre = document.createElement('pre');
  pre.id = 'tare-layout';
  pre.textContent = 'LAY' + 'OUT{' + out.join('\n') + '}LAY' + 'OUT';  // the markers are not in this source
  document.body.appendChild(pre);
})();
</script>)";
    std::string html = Slurp(dir_ + "/" + file);
    const size_t end = html.rfind("</body>");
    if (end == std::string::npos) return {"no </body> in " + file};
    html.insert(end, script);
    // The report's own Content-Security-Policy forbids scripts; the measuring copy lifts it.
    for (size_t at; (at = html.find("Content-Security-Policy")) != std::string::npos;) html.replace(at, 23, "x-no-csp");
    const std::string probe = fmt::format("layout-{}-{}.html", width, file);
    std::ofstream(dir_ + "/" + probe) << html;
    const std::string png = dir_ + "/" + probe + ".png", dom = dir_ + "/" + probe + ".dom";
    const std::string cmd = fmt::format(
        "timeout -k 5 90 '{}' --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run "
        "--disable-extensions --user-data-dir='{}/chromium-profile' --window-size={},900 --screenshot='{}' "
        "--dump-dom 'file://{}/{}' >'{}' 2>/dev/null",
        FindChromium(), dir_, width, png, dir_, probe, dom);
    if (std::system(cmd.c_str()) != 0) return {"chromium failed on " + probe};
    if (const char* artifacts = std::getenv("TARE_ARTIFACTS"); artifacts != nullptr && *artifacts != '\0') {
      fs::create_directories(artifacts);
      fs::copy_file(png, fs::path(artifacts) / fmt::format("{}-{}.png", file, width),
                    fs::copy_options::overwrite_existing);
    }
    const std::string text = Slurp(dom);
    const size_t a = text.find("LAYOUT{"), b = text.find("}LAYOUT");
    if (a == std::string::npos || b == std::string::npos) return {"the layout script did not run on " + probe};
    std::vector<std::string> problems;
    std::stringstream lines(text.substr(a + 7, b - a - 7));
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) problems.push_back(fmt::format("{} at {} px: {}", file, width, line));
    }
    return problems;
  }
  // The widths a reader opens a report at: laptop, desktop, and the narrowest window headless
  // chromium draws (500 CSS px; a phone's is 360-430, which it widens to 500).
  void ExpectLaidOut(const std::string& file) {
    for (int width : {1280, 1920, 500}) {
      for (const auto& p : LayoutProblems(file, width)) ADD_FAILURE() << p;
    }
  }

  // What every report must be in the browser.
  void ExpectRendered(const Page& page, const std::vector<std::string>& names) {
    EXPECT_EQ(page.exit_code, 0) << page.log;
    EXPECT_NE(page.dom.find("</html>"), std::string::npos) << "the DOM was dumped";
    for (const auto& name : names) {
      EXPECT_NE(page.dom.find(DomText(name)), std::string::npos) << "missing: " << name;
    }
    EXPECT_EQ(page.dom.find("<script"), std::string::npos) << "no script element, from a name or otherwise";
    EXPECT_EQ(page.dom.find("<img"), std::string::npos);
    for (const auto& line : page.console) ADD_FAILURE() << "console: " << line;
    ASSERT_TRUE(page.png.ok) << page.png.error;
    EXPECT_EQ(page.png.width, 1200u);
    // A blank page is one colour, all white (TheBrowserCheckSeesScriptsAndBlankPages); a report has
    // text, axes and coloured points: thousands of colours once anti-aliased, a tenth not white.
    EXPECT_GT(page.png.distinct_colours, 100u);
    EXPECT_GT(page.png.non_white, 0.03);
  }

  std::string dir_;
};

// The checks themselves can fail: a page with a script is seen logging, a blank page is blank.
TEST_F(ReportE2E, TheBrowserCheckSeesScriptsAndBlankPages) {
  std::ofstream(dir_ + "/probe.html") << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
                                         "<script>console.log('tare-probe')</script></body></html>";
  Page page = Browse("probe.html");
  ASSERT_EQ(page.exit_code, 0) << page.log;
  ASSERT_EQ(page.console.size(), 1u) << page.log;
  EXPECT_NE(page.console[0].find("tare-probe"), std::string::npos);
  ASSERT_TRUE(page.png.ok) << page.png.error;
  EXPECT_LE(page.png.distinct_colours, 2u);
  EXPECT_LT(page.png.non_white, 0.001);
}

TEST_F(ReportE2E, RunReportsOfAGoogleBenchmarkAndOfACommandThatFails) {
  Result g = Tare({"run", "-q", "-n", "3", "--filter", "BM_StringCopy", GBENCH_BASIC});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  // A command whose third sample (the second measured one) fails, named with a script.
  Result f = Tare({"run", "-q", "-n", "4", "--warmup", "1", "--shell",
                   "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; test $n -ne 2 # " + kHostile});
  ASSERT_EQ(f.exit_code, 1) << f.err;

  Result r1 = Tare({"report", "--run", "1", "-o", "gbench.html"});
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  Result r2 = Tare({"report", "--run", "latest", "-o", "failing.html"});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  const std::string html = Slurp(dir_ + "/failing.html");
  EXPECT_EQ(html.find(kHostile), std::string::npos) << "the name is escaped in the file";
  EXPECT_NE(html.find("<title>sample 2: failed: exit status 1"), std::string::npos)
      << "the failed sample is marked with its reason";
  Result out = Tare({"report", "--run", "1", "-o", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out.rfind("<!DOCTYPE html>", 0), 0u) << "-o - writes to stdout";

  ExpectRendered(Browse("gbench.html"), {"BM_StringCopy/64", "BM_StringCopy/4096", "gb.real_time_ns"});
  ExpectLaidOut("gbench.html");
  Page failing = Browse("failing.html");
  ExpectRendered(failing, {kHostile, "1 measured samples failed", "wall_ns"});
  ExpectLaidOut("failing.html");
}

TEST_F(ReportE2E, CompareReportPlotsTheRegression) {
  Result a = Tare({"run", "-q", "--instrument", "sim", "-n", "2", "--", KNOB_BASE, "--work", "1"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  Result b = Tare({"run", "-q", "--instrument", "sim", "-n", "2", "--", KNOB_PLUS5, "--work", "1"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  Result r = Tare({"report", "--compare", "1", "2", "-o", "compare.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err << "\na report is not a gate: it exits 0 whatever the classes";
  const std::string html = Slurp(dir_ + "/compare.html");
  EXPECT_NE(html.find("class=\"ci regressed\""), std::string::npos);
  EXPECT_NE(html.find("class=\"band threshold\""), std::string::npos);
  // The same thresholds as `tare compare`: a tare.toml's 10% makes +4.4% untouched.
  std::ofstream(dir_ + "/tare.toml") << "[compare]\nthreshold = \"10%\"\n";
  Result t = Tare({"report", "--compare", "1", "2", "-o", "compare10.html"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(Slurp(dir_ + "/compare10.html").find("class=\"ci untouched\""), std::string::npos);

  ExpectRendered(Browse("compare.html"),
                 {"1 regressed", "sim.Ir", "ab_knob_base --work 1 -> ", "ab_knob_plus5 --work 1", "(exact)"});
  ExpectLaidOut("compare.html");
  // Timed runs of one Google Benchmark binary: inconclusive rows, whose long value texts
  // ("-28.73% [-37.94%, +5.04%] inconclusive") were cut to "INCONCLUSIV" in the forest plot.
  for (int i = 0; i < 2; ++i) ASSERT_EQ(Tare({"run", "-q", "-n", "5", "-w", "0", GBENCH_BASIC}).exit_code, 0);
  Result timed = Tare({"report", "--compare", "3", "4", "-o", "timed.html"});
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_NE(Slurp(dir_ + "/timed.html").find("inconclusive"), std::string::npos);
  ExpectLaidOut("timed.html");
}

// The history page: one build at one path, swapped for the +5% build after three runs; the page
// shows the change point between runs 3 and 4 and their commits' range (commits declared here).
TEST_F(ReportE2E, HistoryPageShowsTheChangePoint) {
  for (int i = 0; i < 6; ++i) {
    std::filesystem::copy_file(i < 3 ? KNOB_BASE : KNOB_PLUS5, dir_ + "/prog",
                               std::filesystem::copy_options::overwrite_existing);
    Result r = Tare({"run", "-q", "--instrument", "sim", "-n", "1", "--no-git", "--branch", "main", "--commit",
                     std::to_string(i + 1) + std::string(39, '0'), "--", "./prog", "--work", "1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string bench = dir_ + "/prog --work 1";
  Result r = Tare({"report", "--history", bench, "--min-segment", "3", "-o", "history.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = Slurp(dir_ + "/history.html");
  EXPECT_NE(html.find("main@100000000000"), std::string::npos);
  EXPECT_NE(html.find("main@600000000000"), std::string::npos);
  EXPECT_NE(html.find("<h2>Change points</h2>"), std::string::npos);
  EXPECT_NE(html.find("git log 300000000000..400000000000"), std::string::npos);
  ExpectRendered(Browse("history.html"), {"Run medians", "sim.Ir", "level 1", "level 2", "run 3 → 4"});
  ExpectLaidOut("history.html");
  Result bad = Tare({"report", "--history", "./nothing", "-o", "x.html"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/x.html"));
}

TEST_F(ReportE2E, AbCohortHtmlHasAForestPlotPerCell) {
  Result r = Tare({"ab",          "-q",        "--base",    KNOB_BASE, "--head", KNOB_PLUS5, "--null", "--instrument",
                   "sim",         "--samples", "6",         "--cap",   "6",      "--name",   kHostile, "--html",
                   "cohort.html", "--ledger",  "ledger.md", "--",      "--work", "1"});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err << "\n+5% more work FAILs under sim";
  const std::string html = Slurp(dir_ + "/cohort.html");
  EXPECT_NE(html.find("class=\"ci fail\""), std::string::npos);
  EXPECT_NE(html.find("class=\"band\""), std::string::npos) << "the null arm's interval";
  EXPECT_NE(html.find("class=\"limit\""), std::string::npos) << "the allowance δ";
  EXPECT_NE(html.find("class=\"pt strip s2\""), std::string::npos) << "the null arm's samples";
  // The lock the ledger cites is the page's.
  const std::string ledger = Slurp(dir_ + "/ledger.md");
  const size_t lock = ledger.find("**Lock** `");
  ASSERT_NE(lock, std::string::npos) << ledger;
  EXPECT_NE(html.find(">" + ledger.substr(lock + 10, 12) + "</code>"), std::string::npos);
  // Issue 24 item 3: the FAIL's differential flame graph is under its cell, and the ledger says where.
  const size_t flame = html.find("<figure class=\"flame\"><svg xmlns=\"http://www.w3.org/2000/svg\"");
  ASSERT_NE(flame, std::string::npos) << "a sim cohort's change gets its flame graph";
  EXPECT_NE(html.find("<title>main [", flame), std::string::npos) << html.substr(flame, 3000);
  EXPECT_NE(html.find(": Ir base ", flame), std::string::npos);
  EXPECT_NE(ledger.find("**Flame graphs.** Where the instructions of each FAIL and supported gain went, base → head: "
                        "`cohort.html`, under each cell."),
            std::string::npos)
      << ledger;

  // The cohort's raw samples per arm, from the store.
  Result run = Tare({"report", "--run", "latest", "-o", "cohort-run.html"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(Slurp(dir_ + "/cohort-run.html").find("class=\"pt strip s2\""), std::string::npos);
  // The run page of a sim cohort has the FAIL's flame graph too, rebuilt from the store.
  EXPECT_NE(Slurp(dir_ + "/cohort-run.html").find("<figure class=\"flame\"><svg"), std::string::npos);

  ExpectRendered(Browse("cohort.html"), {kHostile, "FAIL", "sim.Ir", "base", "head", "null"});
  ExpectLaidOut("cohort.html");
  ExpectLaidOut("cohort-run.html");
}

TEST_F(ReportE2E, MistakesAreUsageErrorsThatWriteNothing) {
  Result a = Tare({"run", "-q", "-n", "1", "--warmup", "0", "--", "/bin/true"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  fs::create_directories(dir_ + "/adir");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& c :
       std::vector<Case>{{{"report", "--run", "latest", "--store", "missing.db"}, "no store at 'missing.db'"},
                         {{"report", "--run", "nope"}, "'nope'"},
                         {{"report", "--run", "1", "-o", ".tare/tare.db"}, "is the store"},
                         {{"report", "--run", "1", "-o", "adir"}, "--output"},
                         {{"report", "--run", "1", "-o", "no/such/dir/r.html"}, "--output"},
                         {{"report"}, "--run SELECTOR"},
                         {{"report", "--run", "1", "--compare", "1", "2"}, "name one thing to report"},
                         {{"report", "--run", "1", "--history", "BM_x"}, "name one thing to report"},
                         {{"report", "--compare", "1", "1"}, "are the same run"},
                         {{"report", "--compare", "1", "2"}, "HEAD"},
                         {{"ab", "--base", "/bin/true", "--head", "/bin/true", "--html", ".tare/tare.db"}, "--html"}}) {
    Result r = Tare(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.message << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(dir_ + "/missing.db")) << "a report never creates a store";
  EXPECT_FALSE(fs::exists(dir_ + "/no")) << "nothing written";
}

// Issue 24 item 3: `tare attribute --flame` draws the differential flame graph of a held-out pair
// (examples/inline_toggle/call_cost.cc: Mix() inlined in one build, out of line in the other),
// real valgrind profiles, rendered by the real browser: the frames name the pair's functions, the
// new function is drawn red, and the page is a picture, not an empty canvas.
TEST_F(ReportE2E, TheDifferentialFlameGraphNamesTheFunctionsThatChanged) {
  for (const auto& [name, exe] : {std::pair{"inline", CALL_COST_INLINE}, {"outline", CALL_COST_OUTLINE}}) {
    pid_t pid = fork();
    if (pid == 0) {
      if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(97);
      execlp("valgrind", "valgrind", "--tool=callgrind",
             ("--callgrind-out-file=" + dir_ + "/" + name + ".callgrind").c_str(), exe, "20000",
             static_cast<char*>(nullptr));
      _exit(98);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "valgrind on " << exe;
  }
  Result r = Tare({"attribute", dir_ + "/inline.callgrind", dir_ + "/outline.callgrind", "--flame", dir_ + "/flame.svg",
                   "--flame-head", dir_ + "/head.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Head's own graph: its frames, each with its share of head's total, no change to colour by.
  const std::string head_svg = Slurp(dir_ + "/head.svg");
  EXPECT_NE(head_svg.find("<title>Mix(unsigned long, unsigned long) [call_cost_outline]: Ir 240000 ("),
            std::string::npos)
      << head_svg.substr(0, 3000);
  EXPECT_EQ(head_svg.find("→ head"), std::string::npos);
  const std::string svg = Slurp(dir_ + "/flame.svg");
  EXPECT_EQ(svg.find("<script"), std::string::npos) << "self-contained, no scripts";
  Page page = Browse("flame.svg");
  ASSERT_EQ(page.exit_code, 0) << page.log;
  EXPECT_TRUE(page.console.empty()) << page.console.front();
  // The browser parsed it as SVG: the frames are elements of the DOM it serialises, with their titles.
  EXPECT_NE(page.dom.find("<title>Mix(unsigned long, unsigned long) [call_cost_outline]: Ir base 0 → head "),
            std::string::npos)
      << page.dom.substr(0, 2000);
  EXPECT_NE(page.dom.find("<title>MixAll(long) [call_cost_inline]: Ir base "), std::string::npos);
  EXPECT_NE(page.dom.find(">MixAll(long)</text>"), std::string::npos) << "wide enough to be labelled";
  const size_t mix = page.dom.find("<title>Mix(unsigned long, unsigned long)");
  EXPECT_NE(page.dom.find("fill=\"rgb(255,", mix), std::string::npos) << "new in head: red";
#if TARE_HAVE_ZLIB
  ASSERT_TRUE(page.png.ok) << page.png.error;
  EXPECT_GT(page.png.distinct_colours, 4u);
  EXPECT_GT(page.png.non_white, 0.05) << "the frames are drawn";
#endif
  if (const char* artifacts = std::getenv("TARE_ARTIFACTS"); artifacts != nullptr && *artifacts != '\0') {
    std::error_code ec;
    fs::create_directories(artifacts, ec);
    fs::copy_file(dir_ + "/flame.svg.png", fs::path(artifacts) / "flame-call_cost.png",
                  fs::copy_options::overwrite_existing, ec);
  }
}

// Issue 26 item 6: `tare site -o DIR` publishes every benchmark of a store as static pages. Six
// `tare run --instrument sim` runs of one command, the program replaced by a build doing 5% more
// work after the third: the index shows its last value, a sparkline and the change point between
// runs 3 and 4, and links to its history page; a hostile command line stays text and gets a safe
// file name. Both pages are rendered and laid out in the real browser.
TEST_F(ReportE2E, TheSiteIndexesEveryBenchmarkAndLinksItsHistory) {
  const std::string prog = dir_ + "/prog";
  for (int i = 0; i < 6; ++i) {
    fs::copy_file(i < 3 ? KNOB_BASE : KNOB_PLUS5, prog, fs::copy_options::overwrite_existing);
    Result r = Tare({"run", "-q", "--instrument", "sim", "-n", "1", "--store", "s.db", "--", prog, "--work", "1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ASSERT_EQ(Tare({"run", "-q", "-n", "2", "--store", "s.db", "--", "/bin/echo", kHostile}).exit_code, 0);
  Result r = Tare({"site", "-o", "site", "--store", "s.db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("site of 2 benchmarks"), std::string::npos) << r.err;
  const std::string index = Slurp(dir_ + "/site/index.html");
  EXPECT_NE(index.find("between run 3 and run 4"), std::string::npos) << index;
  EXPECT_NE(index.find("<polyline"), std::string::npos) << "a sparkline";
  // Every page linked from the index exists, and file names are safe whatever the benchmark's name.
  // The sim runs and the echo run are two host types (valgrind.version is a hard key): the index
  // opens with a link to each one's section (issue 45, item 3).
  size_t links = 0;
  for (size_t at = index.find("<a href=\""); at != std::string::npos; at = index.find("<a href=\"", at + 1)) {
    const std::string href = index.substr(at + 9, index.find('"', at + 9) - at - 9);
    if (href.rfind("#host-", 0) == 0) {
      EXPECT_NE(index.find("<h2 id=\"" + href.substr(1) + "\">"), std::string::npos) << href;
      continue;
    }
    EXPECT_EQ(href.rfind("b/", 0), 0u) << href;
    EXPECT_EQ(href.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./"),
              std::string::npos)
        << href;
    EXPECT_TRUE(fs::exists(dir_ + "/site/" + href)) << href;
    ++links;
  }
  EXPECT_EQ(links, 2u);
  // The index is a table of two rows, mostly white: checked here rather than by ExpectRendered's
  // share of coloured pixels, which is sized for plots.
  fs::copy_file(dir_ + "/site/index.html", dir_ + "/site-index.html");
  Page shown = Browse("site-index.html");
  ASSERT_EQ(shown.exit_code, 0) << shown.log;
  for (const std::string& name : {kHostile, std::string("sim.Ir"), std::string("between run 3 and run 4")}) {
    EXPECT_NE(shown.dom.find(DomText(name)), std::string::npos) << "missing: " << name;
  }
  EXPECT_EQ(shown.dom.find("<script"), std::string::npos);
  EXPECT_TRUE(shown.console.empty());
#if TARE_HAVE_ZLIB
  ASSERT_TRUE(shown.png.ok) << shown.png.error;
  EXPECT_GT(shown.png.non_white, 0.01) << "the table and the sparkline are drawn";
#endif
  ExpectLaidOut("site-index.html");
  // The program's row links to its page.
  const size_t text = index.find(">" + prog + " --work 1</a>");
  ASSERT_NE(text, std::string::npos) << index;
  const size_t href = index.rfind("<a href=\"", text) + 9;
  const std::string page = "site/" + index.substr(href, index.find('"', href) - href);
  ASSERT_TRUE(fs::exists(dir_ + "/" + page)) << page;
  // Issue 45, item 6: each page links back to the index (item 3: to its host type's section), and
  // its plot labels runs by id, as its text names them ("run 3 → 4"), not by position 0-5.
  const std::string page_html = Slurp(dir_ + "/" + page);
  EXPECT_NE(page_html.find("<a href=\"../index.html#host-"), std::string::npos) << page_html.substr(0, 2000);
  EXPECT_NE(page_html.find(">run id, in the order the runs were stored<"), std::string::npos);
  EXPECT_NE(page_html.find(">6</text>"), std::string::npos) << "the newest run's id on the x axis";
  fs::copy_file(dir_ + "/" + page, dir_ + "/site-page.html");
  ExpectRendered(Browse("site-page.html"), {"sim.Ir", "run 3", "run 4"});
  ExpectLaidOut("site-page.html");

  // -o naming a file, and a store with nothing measured, are errors that write nothing.
  std::ofstream(dir_ + "/afile") << "x";
  EXPECT_EQ(Tare({"site", "-o", "afile", "--store", "s.db"}).exit_code, 2);
  EXPECT_EQ(Slurp(dir_ + "/afile"), "x");
}

// Issue 45, item 3: one run with `--env MALLOC_ARENA_MAX=2` (another host type: target.env is a
// hard key) hid the other host type's runs from the index. Each host type has its own section,
// saying what sets it apart from the others, and a benchmark measured on both has a row and a
// page in each: three runs on the plain host, one on the other, none silently dropped.
TEST_F(ReportE2E, TheSiteShowsEveryHostTypeInItsOwnSection) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(Tare({"run", "-q", "-n", "2", "--store", "s.db", "--", "/bin/echo", "plain"}).exit_code, 0);
  }
  ASSERT_EQ(Tare({"run", "-q", "-n", "2", "--store", "s.db", "--", "/bin/echo", "only-plain"}).exit_code, 0);
  Result env =
      Tare({"run", "-q", "-n", "2", "--env", "MALLOC_ARENA_MAX=2", "--store", "s.db", "--", "/bin/echo", "plain"});
  ASSERT_EQ(env.exit_code, 0) << env.err;
  Result r = Tare({"site", "-o", "site", "--store", "s.db"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 host types"), std::string::npos) << r.err;
  const std::string index = Slurp(dir_ + "/site/index.html");
  // Whatever the markup: two rows of the benchmark, one per host type (one row, the newest run's
  // host type with its 1 run, before).
  size_t rows = 0;
  for (size_t at = index.find(">/bin/echo plain</a>"); at != std::string::npos;
       at = index.find(">/bin/echo plain</a>", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 2u) << index;
  // Two sections, the newest run's host type first, each saying what sets it apart.
  const size_t first = index.find("<h2 id=\"host-");
  ASSERT_NE(first, std::string::npos) << index;
  const size_t second = index.find("<h2 id=\"host-", first + 1);
  ASSERT_NE(second, std::string::npos) << index;
  EXPECT_EQ(index.find("<h2 id=\"host-", second + 1), std::string::npos) << index;
  const std::string env_section = index.substr(first, second - first);
  const std::string plain_section = index.substr(second);
  // target.env is what differs: MALLOC_ARENA_MAX=2 in one, absent or without it in the other (a
  // variable set for the whole machine, OPENBLAS_CORETYPE, is in both).
  const std::string apart = "Set apart from the other host types by: <code>target.env";
  EXPECT_NE(env_section.find(apart + " = MALLOC_ARENA_MAX=2"), std::string::npos) << env_section;
  EXPECT_NE(plain_section.find(apart), std::string::npos) << plain_section;
  EXPECT_EQ(plain_section.find("MALLOC_ARENA_MAX"), std::string::npos) << plain_section;
  // /bin/echo plain has a row in each, linking to its own page of that host type's runs.
  auto page_of = [&](const std::string& section, const std::string& name) -> std::string {
    const size_t text = section.find(">" + name + "</a>");
    if (text == std::string::npos) return "";
    const size_t href = section.rfind("<a href=\"", text) + 9;
    return section.substr(href, section.find('"', href) - href);
  };
  const std::string env_page = page_of(env_section, "/bin/echo plain");
  const std::string plain_page = page_of(plain_section, "/bin/echo plain");
  ASSERT_FALSE(env_page.empty()) << env_section;
  ASSERT_FALSE(plain_page.empty()) << plain_section;
  EXPECT_NE(env_page, plain_page);
  EXPECT_NE(Slurp(dir_ + "/site/" + env_page).find("<tr><th>runs</th><td>1</td>"), std::string::npos);
  EXPECT_NE(Slurp(dir_ + "/site/" + plain_page).find("<tr><th>runs</th><td>3</td>"), std::string::npos);
  // Each page links the same benchmark's page of the other host type (they said "runs on other
  // hosts not shown" and nothing more); a page of its own says how to draw the other host type.
  const std::string env_html = Slurp(dir_ + "/site/" + env_page), plain_html = Slurp(dir_ + "/site/" + plain_page);
  EXPECT_NE(env_html.find("3 runs on other hosts not shown: results are never pooled across hosts; each host type's "
                          "page: <a href=\"" +
                          fs::path(plain_page).filename().string() + "\">"),
            std::string::npos)
      << env_html;
  EXPECT_NE(plain_html.find("each host type's page: <a href=\"" + fs::path(env_page).filename().string() + "\">"),
            std::string::npos)
      << plain_html;
  EXPECT_TRUE(fs::exists(dir_ + "/site/b/" + fs::path(plain_page).filename().string()));
  Result own = Tare({"report", "--history", "/bin/echo plain", "--store", "s.db"});
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_NE(own.out.find("3 runs on other hosts not shown: results are never pooled across hosts; --host DIGEST "
                         "draws another host type&#39;s)"),
            std::string::npos)
      << own.out;
  EXPECT_FALSE(page_of(plain_section, "/bin/echo only-plain").empty()) << plain_section;
  EXPECT_TRUE(page_of(env_section, "/bin/echo only-plain").empty()) << "measured on the plain host only";
  fs::copy_file(dir_ + "/site/index.html", dir_ + "/site-index.html");
  Page shown = Browse("site-index.html");
  ASSERT_EQ(shown.exit_code, 0) << shown.log;
  EXPECT_NE(shown.dom.find("MALLOC_ARENA_MAX=2"), std::string::npos);
  EXPECT_TRUE(shown.console.empty());
  ExpectLaidOut("site-index.html");
}

}  // namespace
