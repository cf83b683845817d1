// The sessions docs/*.md show, run for real (issue 44, item 8): a `$ tare …` line followed by the
// output the page says it prints. docs_commands_test only parses those lines, so a page could show
// a table whose columns, status words or exit status tare no longer prints. Here each page's
// sessions are taken out of its Markdown at test time (ExtractSessions), run as written — by bash,
// in a scratch directory prepared with what the page's session needs (real profiles, a git
// repository, an ab store, runs) — and what they print is compared with what the page shows,
// numbers, digests, dates and paths masked (Mask). A prompted line of a page is either run here
// (Specs) or listed with the reason it cannot run offline (Offline); one in neither list fails
// EverySessionLineIsRunOrExcused, so a new session gets its check when it is written.
//
// Comparison. kLines: every line the page shows under a command (but `...`, blank lines and the
// spec's host-dependent ones) must appear, masked and with runs of blanks as one, in order, on
// stdout or stderr (each stream in its own order); extra lines are allowed. kShape, for timings of
// a loaded host: the first line and the lines without a figure (table headers) as kLines, with the
// compare classes as one word, and each table row's benchmark and metric present. The exit status
// must be 0 unless the page shows it (`$ echo $?`, `; echo $?`, a `# exit N` comment) or the spec
// says otherwise.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bisect/bisect_repo.h"
#include "doc_commands.h"
#include "tare_process.h"

namespace tare::docs {
namespace {

namespace fs = std::filesystem;

enum class Check { kLines, kShape };

struct Spec {
  std::string file;      // docs/NAME.md
  std::string command;   // the prompted line as the page writes it (continuations joined)
  std::string cwd = {};  // where it runs, under the scratch directory ("" the scratch directory)
  Check check = Check::kLines;
  std::vector<std::string> skip = {};    // regexes of shown lines that depend on the host, not compared
  std::vector<std::string> expect = {};  // regexes the output must match (what a comment promises)
  std::set<int> exits = {0};             // when the page does not show the status
  std::vector<std::string> files = {};   // what it must leave behind, relative to cwd
};

// Host-dependent lines, named once.
const char* const kSoftKeys = R"(^hosts: comparable; soft keys differ|^  soft )";
// The dynamic loader's rows: what ld.so does before main (strcspn over paths and the environment)
// depends on where the checkout is and what the shell exported, not on the program (CI's clean
// clone at another path printed no strcspn row).
const char* const kLoaderRows = R"(\[ld-linux[^\]]*\]\s*$)";

const std::vector<Spec>& Specs() {
  static const std::vector<Spec> kSpecs = {
      // docs/attribute.md: callgrind profiles of examples/inline_toggle and the memory_walk pair.
      {.file = "docs/attribute.md",
       .command = "tare attribute outline.callgrind inline.callgrind --top 3",
       .skip = {kLoaderRows}},
      {.file = "docs/attribute.md", .command = "tare attribute outline.callgrind moved.callgrind --asm Work"},
      {.file = "docs/attribute.md", .command = "tare attribute outline.callgrind inline.callgrind --asm Work"},
      {.file = "docs/attribute.md", .command = "tare attribute seq.callgrind scatter.callgrind --top 3"},
      {.file = "docs/attribute.md",
       .command = "tare attribute cc_inline.callgrind cc_outline.callgrind --base-exe call_cost_inline "
                  "--head-exe call_cost_outline"},
      // docs/bisect.md: a ten-commit repository built by its tare.toml.
      {.file = "docs/bisect.md",
       .command = "tare run --commits HEAD~9..HEAD --instrument sim --samples 1 --filter '^slow$' --store h.db",
       .cwd = "repo"},
      {.file = "docs/bisect.md",
       .command = "tare history slow --metric sim.Ir --min-segment 3 --store h.db",
       .cwd = "repo"},
      // docs/bundle.md: an ab --instrument sim cohort in ab/tare.db, a sim run of gbench_basic in s/tare.db.
      {.file = "docs/bundle.md", .command = "tare bundle --store ab/tare.db -o ab.tar.gz"},
      {.file = "docs/bundle.md", .command = "tar tzf ab.tar.gz | grep -v profiles/"},
      {.file = "docs/bundle.md", .command = "tare bundle verify ab.tar.gz"},
      {.file = "docs/bundle.md", .command = "tare bundle verify tampered.tar.gz; echo $?"},
      {.file = "docs/bundle.md", .command = "mkdir empty && cd empty && tare replay ../ab.tar.gz", .skip = {kSoftKeys}},
      {.file = "docs/bundle.md", .command = "tare spread --executable d4e1cb30b3ae", .cwd = "empty_gb"},
      // Whether the counts of the original and the replay match is the paths' (the page says why):
      // a whole process's start-up moves with the length of its paths and environment.
      {.file = "docs/bundle.md",
       .command = "tare spread --lock 8ad732848993 --metric sim.Ir --metric sim.est_cycles",
       .cwd = "empty",
       .skip = {R"(^sim\.(Ir|est_cycles): )"}},
      {.file = "docs/bundle.md", .command = "tare export --store s/tare.db -o a.json", .files = {"a.json"}},
      {.file = "docs/bundle.md", .command = "mkdir o"},
      {.file = "docs/bundle.md", .command = "tare import a.json --store o/tare.db"},
      // docs/compare.md: sim runs on two branches of a checkout; timing runs of two examples.
      {.file = "docs/compare.md", .command = "tare compare main feature-x", .cwd = "branches", .exits = {1}},
      {.file = "docs/compare.md", .command = "echo $?", .cwd = "branches"},
      // The host's load decides the classes and the warnings: their shape only, any exit a compare has.
      {.file = "docs/compare.md",
       .command = "tare compare 1 2",
       .cwd = "gb",
       .check = Check::kShape,
       .exits = {0, 1, 3}},
      {.file = "docs/compare.md",
       .command = "tare compare 5 4",
       .cwd = "gb",
       .check = Check::kShape,
       .exits = {0, 1, 3}},
      {.file = "docs/compare.md", .command = "tare variance 1 2 6 7 --all", .cwd = "gb", .check = Check::kShape},
      // docs/fingerprint.md: the comments say what each prints.
      {.file = "docs/fingerprint.md",
       .command = "tare env # grouped keys, hard ones starred, then stability checks with fixes",
       .expect = {R"(^Host fingerprint \(hard digest [0-9a-f]+)", R"(\n *\* )", R"(\nStability checks \()", R"(fix)"}},
      {.file = "docs/fingerprint.md",
       .command = "tare env --json # schema \"tare.fingerprint/1\"",
       .expect = {R"("schema": "tare\.fingerprint/1")"}},
      {.file = "docs/fingerprint.md",
       .command = "tare env --sim # also valgrind's version (runs `valgrind --version`)",
       .expect = {R"(valgrind-[0-9]+\.[0-9]+)"}},
      // docs/report.md: the comments give the exit statuses; the pages are the report e2e test's.
      {.file = "docs/report.md",
       .command = "tare ab -q --base build/examples/ab_knob/ab_knob_base --head build/examples/ab_knob/ab_knob_plus5 "
                  "--instrument sim --samples 6 --cap 6 --name 'ab_knob: +5% <script>alert(1)</script>' "
                  "--html cohort.html --ledger ledger.md -- --work 1 # exit 1: FAIL",
       .files = {"cohort.html", "ledger.md"}},
      {.file = "docs/report.md",
       .command = "tare run -q --instrument sim -n 2 -- build/examples/ab_knob/ab_knob_base --work 1"},
      {.file = "docs/report.md",
       .command = "tare run -q --instrument sim -n 2 -- build/examples/ab_knob/ab_knob_plus5 --work 1"},
      {.file = "docs/report.md",
       .command = "tare report --compare 2 3 -o compare.html # exit 0",
       .files = {"compare.html"}},
  };
  return kSpecs;
}

// Prompted lines that need what a scratch directory cannot have.
const std::map<std::pair<std::string, std::string>, std::string>& Offline() {
  static const std::map<std::pair<std::string, std::string>, std::string> kWhy = {
      {{"docs/compare.md", "git checkout main && tare run -n 20 ./build/bench"}, "the reader's checkout and suite"},
      {{"docs/compare.md", "git checkout feature-x && tare run -n 20 ./build/bench"},
       "the reader's checkout and suite"},
  };
  return kWhy;
}

// A command as the lists name it: runs of blanks as one (a continued line's joins vary).
std::string Key(const std::string& command) {
  static const std::regex kBlanks(R"([ \t]+)");
  return std::regex_replace(command, kBlanks, " ");
}

const Spec* FindSpec(const std::string& file, const std::string& command) {
  for (const auto& s : Specs()) {
    if (s.file == file && Key(s.command) == Key(command)) return &s;
  }
  return nullptr;
}

bool IsOffline(const std::string& file, const std::string& command) {
  for (const auto& [key, why] : Offline()) {
    if (key.first == file && Key(key.second) == Key(command)) return true;
  }
  return false;
}

std::vector<DocSession> PageSessions(const std::string& file) {
  return ExtractSessions(file, e2e::Slurp(std::string(TARE_SOURCE_ROOT) + "/" + file));
}

}  // namespace

// A line as compared: digits and hex digests (a word of hex digits with a digit in it) are `#`,
// a figure's grouping, decimals, sign and a date's or time's separators fold into it, and runs of
// blanks are one space.
std::string Mask(const std::string& line) {
  static const std::regex kToken(R"(\b[0-9a-f]*[0-9][0-9a-f]*\b)");
  static const std::regex kJoined(R"(#(?:[.,:\-]#)+)");
  static const std::regex kSigned(R"((?:[+-]|±|−)#)");
  static const std::regex kBlanks(R"([ \t]+)");
  // A duration's unit follows its size ("462 ms", "2.64 s", "1.2 min"): both are the host's.
  static const std::regex kDuration(R"(# ?(?:ns|us|µs|ms|s|min|h)\b)");
  std::string s = std::regex_replace(line, kToken, "#");
  s = std::regex_replace(s, kJoined, "#");
  s = std::regex_replace(s, kSigned, "#");
  s = std::regex_replace(s, kDuration, "#<time>");
  s = std::regex_replace(s, kBlanks, " ");
  const size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

// kShape's view of a line: Mask, with a list of compare classes ("1 regressed, 2 untouched") as one.
std::string Skeleton(const std::string& line) {
  static const std::regex kClasses(
      R"(# (?:regressed|improved|untouched|inconclusive|new|missing|failed|skipped)(?:, # (?:regressed|improved|untouched|inconclusive|new|missing|failed|skipped))*)");
  return std::regex_replace(Mask(line), kClasses, "<classes>");
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// What is wrong with `out` and `err` as the output of a session that shows `shown` ("" if nothing).
std::string CompareOutput(const std::vector<std::string>& shown, const std::string& out, const std::string& err,
                          Check check, const std::vector<std::string>& skip) {
  auto view = [&](const std::string& l) { return check == Check::kShape ? Skeleton(l) : Mask(l); };
  std::vector<std::string> streams[2];
  for (int k = 0; k < 2; ++k) {
    for (const auto& l : Lines(k == 0 ? out : err)) streams[k].push_back(view(l));
  }
  size_t at[2] = {0, 0};
  std::string problems;
  bool first = true;
  for (const auto& raw : shown) {
    const std::string want = view(raw);
    if (want.empty() || want == "...") continue;
    bool skipped = false;
    for (const auto& s : skip) skipped = skipped || std::regex_search(raw, std::regex(s));
    if (skipped) continue;
    const bool is_first = first;
    first = false;
    if (check == Check::kShape && !is_first && want.find('#') != std::string::npos) {
      // A row: its first two words that are not a class (the benchmark and its metric) must be in a line.
      static const std::regex kRow(R"((\S+) (\S+\.\S+) )");
      std::smatch m;
      if (!std::regex_search(want, m, kRow)) continue;
      const std::string key = m[1].str() + " " + m[2].str() + " ";
      bool found = false;
      for (int k = 0; k < 2 && !found; ++k) {
        for (const auto& l : streams[k]) found = found || l.find(key) != std::string::npos;
      }
      if (!found) problems += "  no row of `" + key + "` (the page's: " + raw + ")\n";
      continue;
    }
    bool found = false;
    for (int k = 0; k < 2 && !found; ++k) {
      for (size_t i = at[k]; i < streams[k].size(); ++i) {
        if (streams[k][i] == want) {
          at[k] = i + 1;
          found = true;
          break;
        }
      }
    }
    if (!found) problems += "  not printed (in this order): " + raw + "\n     masked: " + want + "\n";
  }
  return problems;
}

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

// One page's scratch directory: `bin/tare` first on PATH, `build` the real build directory.
class Page {
 public:
  explicit Page(std::string file) : file_(std::move(file)) {
    char tmpl[] = "/tmp/tare-doc-sessions-XXXXXX";
    EXPECT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    fs::create_directories(dir_ / "bin");
    fs::create_symlink(TARE_BIN, dir_ / "bin/tare");
    fs::create_symlink(TARE_BINARY_DIR, dir_ / "build");
    setenv("PATH", ((dir_ / "bin").string() + ":" + std::getenv("PATH")).c_str(), 1);
    unsetenv("TARE_PARSE_ONLY");
    unsetenv("TARE_STORE");
    setenv("NO_COLOR", "1", 1);
  }
  ~Page() {
    if (!::testing::Test::HasFailure()) fs::remove_all(dir_);
  }

  const fs::path& dir() const { return dir_; }

  // Runs `command` by bash in dir/cwd; what it printed goes to files outside that directory.
  Outcome Sh(const std::string& cwd, const std::string& command) {
    const fs::path script = dir_.parent_path() / (dir_.filename().string() + ".sh");
    std::ofstream(script) << command << "\n";
    const std::string out = script.string() + ".out", err = script.string() + ".err";
    const int rc = std::system(
        ("cd '" + (dir_ / cwd).string() + "' && bash '" + script.string() + "' >'" + out + "' 2>'" + err + "'")
            .c_str());
    Outcome o{WIFEXITED(rc) ? WEXITSTATUS(rc) : 128, e2e::Slurp(out), e2e::Slurp(err)};
    fs::remove(script);
    fs::remove(out);
    fs::remove(err);
    return o;
  }

  // A preparation step: must succeed.
  std::string Prepare(const std::string& cwd, const std::string& command) {
    fs::create_directories(dir_ / cwd);
    Outcome o = Sh(cwd, command);
    EXPECT_EQ(o.exit_code, 0) << "preparing " << file_ << ": " << command << "\n" << o.out << o.err;
    return o.out + o.err;
  }

  // `from` in the page (a digest, a path of the machine it ran on) is `to` here.
  void Rewrite(const std::string& from, const std::string& to) { rewrites_.emplace_back(from, to); }
  // Before the first session whose command is `command`.
  void Before(const std::string& command, std::function<void()> step) { before_[command] = std::move(step); }

  // Runs every session of the page in order; returns how many ran.
  int Run() {
    int ran = 0;
    int last_exit = 0;
    for (const DocSession& s : PageSessions(file_)) {
      const Spec* spec = FindSpec(file_, s.command);
      if (spec == nullptr) continue;  // offline, or unlisted (EverySessionLineIsRunOrExcused fails)
      if (auto it = before_.find(s.command); it != before_.end()) {
        it->second();
        before_.erase(it);
        if (::testing::Test::HasFatalFailure()) return ran;
      }
      std::string command = Apply(s.command);
      std::vector<std::string> shown;
      for (const auto& l : s.shown) shown.push_back(Apply(l));
      Outcome o;
      if (command == "echo $?") {
        o.exit_code = 0;
        o.out = std::to_string(last_exit) + "\n";
      } else {
        fs::create_directories(dir_ / spec->cwd);
        o = Sh(spec->cwd, command);
      }
      ++ran;
      last_exit = o.exit_code;
      const std::string where = file_ + ":" + std::to_string(s.line) + ": `" + command + "`";
      std::set<int> exits = spec->exits;
      static const std::regex kExitComment(R"(# exit ([0-9]+))");
      if (std::smatch m; std::regex_search(command, m, kExitComment)) exits = {std::stoi(m[1])};
      EXPECT_TRUE(exits.count(o.exit_code)) << where << " exited " << o.exit_code << "\n" << o.out << o.err;
      const std::string problems = CompareOutput(shown, o.out, o.err, spec->check, spec->skip);
      EXPECT_TRUE(problems.empty()) << where << " does not print what the page shows:\n"
                                    << problems << "--- stdout:\n"
                                    << o.out << "--- stderr:\n"
                                    << o.err;
      for (const auto& e : spec->expect) {
        EXPECT_TRUE(std::regex_search(o.out + o.err, std::regex(e)))
            << where << " printed no match for /" << e << "/:\n"
            << o.out << o.err;
      }
      for (const auto& f : spec->files) EXPECT_TRUE(fs::exists(dir_ / spec->cwd / f)) << where << " left no " << f;
    }
    return ran;
  }

 private:
  std::string Apply(std::string text) const {
    for (const auto& [from, to] : rewrites_) {
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
      }
    }
    return text;
  }

  std::string file_;
  fs::path dir_;
  std::vector<std::pair<std::string, std::string>> rewrites_;
  std::map<std::string, std::function<void()>> before_;
};

std::string Q(const std::string& path) { return "'" + path + "'"; }

// The first 12 hex digits of a file's sha256.
std::string Sha12(Page& page, const std::string& file) {
  return page.Prepare("", "sha256sum " + Q(file)).substr(0, 12);
}

std::string Capture(const std::string& text, const std::string& re) {
  std::smatch m;
  return std::regex_search(text, m, std::regex(re)) ? m[1].str() : "";
}

}  // namespace

// The comparison can fail: figures, digests and dates are masked, words and columns are not.
TEST(DocSessions, ComparisonMasksFiguresAndCatchesWords) {
  EXPECT_EQ(Mask("  run 1 (main@5bbf7a446f96) -> run 2:  +4.37% [-0.2%, +6.0%]  1,800,013 2026-12-05 20:39"),
            "run # (main@#) -> run #: #% [#%, #%] # # #");
  // A duration is the host's, its unit too.
  EXPECT_EQ(Mask("first block: 2.64 s per sample (96.4 ms of it)"),
            Mask("first block: 462 ms per sample (1.2 min of it)"));
  const std::string out = "Ir: base 2368393 -> head 2248396, change -119997 (-5.1%)\n\nself change  share  function\n";
  EXPECT_EQ(CompareOutput({"Ir: base 1 -> head 2, change +1 (+0.1%)", "...", "self change     share  function"}, out,
                          "", Check::kLines, {}),
            "");
  EXPECT_NE(CompareOutput({"Ir: base 1 -> head 2, delta +1 (+0.1%)"}, out, "", Check::kLines, {}), "");
  EXPECT_NE(CompareOutput({"self change  percent  function"}, out, "", Check::kLines, {}), "");
  EXPECT_NE(CompareOutput({"self change  share  function", "Ir: base 1 -> head 2, change +1 (+0.1%)"}, out, "",
                          Check::kLines, {}),
            "")
      << "order";
  EXPECT_EQ(CompareOutput({"not this host's line"}, out, "", Check::kLines, {"^not this"}), "");
  // kShape: classes are one word, rows need their benchmark and metric.
  const std::string cmp =
      "run 1 -> run 2: 2 untouched, 1 regressed\n\nstatus  benchmark  metric  base\n"
      "regressed  BM_A/64  gb.cpu_time_ns  19 ns\n";
  EXPECT_EQ(CompareOutput({"run 1 -> run 2: 3 inconclusive", "status benchmark metric base",
                           "inconclusive  BM_A/4096  gb.cpu_time_ns  89.8 ns"},
                          cmp, "", Check::kShape, {}),
            "");
  EXPECT_NE(CompareOutput({"run 1 -> run 2: 3 inconclusive", "inconclusive  BM_B/64  gb.cpu_time_ns  1 ns"}, cmp, "",
                          Check::kShape, {}),
            "");
  EXPECT_NE(
      CompareOutput({"run 1 -> run 2: 3 inconclusive", "status benchmark metric median"}, cmp, "", Check::kShape, {}),
      "");
}

TEST(DocSessions, EverySessionLineIsRunOrExcused) {
  std::set<std::pair<std::string, std::string>> seen;
  int pages = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(TARE_SOURCE_ROOT) / "docs")) {
    if (entry.path().extension() != ".md") continue;
    const std::string file = "docs/" + entry.path().filename().string();
    for (const DocSession& s : PageSessions(file)) {
      ++pages;
      seen.insert({file, Key(s.command)});
      EXPECT_TRUE(FindSpec(file, s.command) != nullptr || IsOffline(file, s.command))
          << file << ":" << s.line << ": `" << s.command << "` is not run by a test: add it to Specs() in "
          << "tests/docs/doc_sessions_test.cc (or to Offline(), saying why it cannot run offline)";
    }
  }
  EXPECT_GE(pages, 30);
  for (const auto& s : Specs()) {
    EXPECT_TRUE(seen.count({s.file, Key(s.command)})) << "no longer in " << s.file << ": " << s.command;
  }
  for (const auto& [key, why] : Offline()) {
    EXPECT_TRUE(seen.count({key.first, Key(key.second)})) << "no longer in " << key.first << ": " << key.second;
  }
}

TEST(DocSessions, Attribute) {
  Page page("docs/attribute.md");
  for (const auto& [name, exe] : {std::pair{"inline_toggle_outline", TOGGLE_OUTLINE},
                                  {"inline_toggle_inline", TOGGLE_INLINE},
                                  {"inline_toggle_moved", TOGGLE_MOVED},
                                  {"call_cost_inline", CALL_COST_INLINE},
                                  {"call_cost_outline", CALL_COST_OUTLINE},
                                  {"memory_walk_seq", MEMORY_WALK_SEQ},
                                  {"memory_walk_scatter", MEMORY_WALK_SCATTER}}) {
    fs::copy_file(exe, page.dir() / name);
  }
  // How the page says its profiles were made.
  for (const auto& [profile, run] : {std::pair{"outline", "inline_toggle_outline 20000"},
                                     {"inline", "inline_toggle_inline 20000"},
                                     {"moved", "inline_toggle_moved 20000"},
                                     {"cc_inline", "call_cost_inline"},
                                     {"cc_outline", "call_cost_outline"}}) {
    page.Prepare("", std::string("valgrind -q --tool=callgrind --callgrind-out-file=") + profile + ".callgrind ./" +
                         run + " >/dev/null");
  }
  for (const auto& [profile, exe] : {std::pair{"seq", "memory_walk_seq"}, {"scatter", "memory_walk_scatter"}}) {
    page.Prepare("", std::string("valgrind -q --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 "
                                 "--LL=8388608,16,64 --callgrind-out-file=") +
                         profile + ".callgrind ./" + exe + " 1000000 >/dev/null");
  }
  EXPECT_EQ(page.Run(), 5);
}

TEST(DocSessions, Bisect) {
  Page page("docs/bisect.md");
  const fs::path repo = page.dir() / "repo";
  fs::create_directories(repo);
  std::ofstream(repo / "tare.toml") << "[bisect]\nbuild = \"mkdir -p {build} && g++ -O1 -std=c++20 -I"
                                    << TARE_INCLUDE_DIR << " -o {build}/bm {src}/bm.cc " << TARE_BENCH_LIB
                                    << " -ldl -lpthread\"\nexecutable = \"{build}/bm\"\n";
  page.Prepare("repo",
               "git init -q -b main . && git config user.email t@example.com && git config user.name Tester && "
               "echo .tare > .git/info/exclude && echo h.db >> .git/info/exclude");
  // The page's history: "slow" does twice the work at the eighth commit, the sixth does not build.
  const std::string comment = "// The benchmarks of the bisect example.\n";
  const std::vector<std::pair<std::string, std::pair<std::string, std::string>>> commits = {
      {"Add the fast and slow benchmarks", {"bm.cc", e2e::TwoBenchmarks("fast", 100000, "slow", 200000)}},
      {"Add a README", {"README", "bm\n"}},
      {"Say what bm.cc is", {"bm.cc", comment + e2e::TwoBenchmarks("fast", 100000, "slow", 200000)}},
      {"Add an unrelated helper",
       {"bm.cc", comment + e2e::TwoBenchmarks("fast", 100000, "slow", 200000, "static int Unused() { return 3; }\n")}},
      {"Write docs", {"DOCS", "docs\n"}},
      {"Break the build", {"bm.cc", comment + e2e::TwoBenchmarks("fast", 100000, "slow", 200000) + "#error broken\n"}},
      {"Fix the build", {"bm.cc", comment + e2e::TwoBenchmarks("fast", 100000, "slow", 200000)}},
      {"Make slow do twice the work", {"bm.cc", comment + e2e::TwoBenchmarks("fast", 100000, "slow", 400000)}},
      {"Reword the README", {"README", "bm, the benchmarks\n"}},
      {"Shorten a comment", {"bm.cc", "// The benchmarks.\n" + e2e::TwoBenchmarks("fast", 100000, "slow", 400000)}},
  };
  for (const auto& [message, change] : commits) {
    std::ofstream(repo / change.first) << change.second;
    page.Prepare("repo", "git add -A && git commit -q -m " + Q(message));
  }
  EXPECT_EQ(page.Run(), 2);
}

TEST(DocSessions, Bundle) {
  Page page("docs/bundle.md");
  page.Rewrite("/home/me/work", page.dir().string());  // the replay's note names its store's directory
  fs::copy_file(TOGGLE_OUTLINE, page.dir() / "inline_toggle_outline");
  fs::copy_file(TOGGLE_INLINE, page.dir() / "inline_toggle_inline");
  fs::copy_file(GBENCH_BASIC, page.dir() / "gbench_basic");
  // The page's cohort, piped (its ledger rebuilt in the bundle).
  page.Prepare("",
               "mkdir ab s && tare ab --instrument sim --base inline_toggle_outline --head inline_toggle_inline "
               "--samples 6 --cap 6 "
               "--store ab/tare.db -- 2000 >/dev/null");
  page.Before("tare bundle verify tampered.tar.gz; echo $?", [&] {
    // One bit of bin/head flipped, repacked in the same member order.
    page.Prepare("",
                 "mkdir t && tar xzf ab.tar.gz -C t && "
                 "printf '%s' \"$(tar tzf ab.tar.gz)\" > members && "
                 "python3 -c \"import sys; p='t/bin/head'; b=bytearray(open(p,'rb').read()); b[len(b)//2]^=1; "
                 "open(p,'wb').write(b)\" && tar czf tampered.tar.gz -C t -T members");
  });
  page.Before("tare spread --executable d4e1cb30b3ae", [&] {
    // The sim run of gbench_basic's BM_StringCopy, bundled and replayed in an empty directory. Run
    // from a path at least as long as the replay's (docs/bundle.md, "What a replay cannot
    // reproduce"): the page's own directory is shorter.
    page.Prepare("",
                 "mkdir -p measured/in/a/build/directory && cp gbench_basic measured/in/a/build/directory/ && "
                 "tare run -q --instrument sim --samples 2 --filter BM_StringCopy --store s/tare.db "
                 "measured/in/a/build/directory/gbench_basic && "
                 "tare bundle --store s/tare.db -o gb.tar.gz >/dev/null && mkdir empty_gb && cd empty_gb && "
                 "tare replay -q ../gb.tar.gz >/dev/null");
    page.Rewrite("d4e1cb30b3ae", Sha12(page, (page.dir() / "gbench_basic").string()));
  });
  page.Before("tare spread --lock 8ad732848993 --metric sim.Ir --metric sim.est_cycles", [&] {
    const std::string lock = Capture(page.Prepare("", "tare bundle verify ab.tar.gz"), R"(, lock ([0-9a-f]{12}))");
    EXPECT_EQ(lock.size(), 12u);
    page.Rewrite("8ad732848993", lock);
  });
  EXPECT_EQ(page.Run(), 11);
}

TEST(DocSessions, Compare) {
  Page page("docs/compare.md");
  const std::string build = TARE_BINARY_DIR;
  page.Rewrite("/work/main/build/", build + "/");
  page.Before("tare compare main feature-x", [&] {
    // The deterministic example: ab_knob's base and +5% under sim, on two branches of a checkout.
    page.Prepare("branches",
                 "git init -q -b main . && git config user.email t@example.com && git config user.name T && "
                 "echo .tare > .git/info/exclude && git commit -q --allow-empty -m base && "
                 "tare run -q --instrument sim -n 1 -- " +
                     build +
                     "/examples/ab_knob/ab_knob_base --work 1 && "
                     "git checkout -q -b feature-x && git commit -q --allow-empty -m plus5 && "
                     "tare run -q --instrument sim -n 1 -- " +
                     build + "/examples/ab_knob/ab_knob_plus5 --work 1");
  });
  page.Before("tare compare 1 2", [&] {
    // Runs 1 and 2 the Google Benchmark example; 3 and 5 gbench_knob's base, 4 its +2% build; 6 and
    // 7 the first again. Three samples: the host's load decides the classes, the test the shape.
    const std::string gb = "tare run -q --samples 3 " + std::string(GBENCH_BASIC) + " && ";
    const std::string base = "tare run -q --samples 3 " + std::string(GBENCH_KNOB_BASE) + " && ";
    page.Prepare("gb",
                 gb + gb + base + "tare run -q --samples 3 " + GBENCH_KNOB_PLUS2 + " && " + base + gb + gb + "true");
  });
  EXPECT_EQ(page.Run(), 6);
}

TEST(DocSessions, Fingerprint) {
  Page page("docs/fingerprint.md");
  EXPECT_EQ(page.Run(), 3);
}

TEST(DocSessions, Report) {
  Page page("docs/report.md");
  EXPECT_EQ(page.Run(), 4);
}

}  // namespace tare::docs
