#include "report/ab_consistency.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "report/escape.h"

namespace tare::report {
namespace {

using nlohmann::json;

constexpr double kEps = 1e-9;  // the JSON carries full doubles: only rounding of the arithmetic
constexpr double kInf = std::numeric_limits<double>::infinity();

double Num(const json& j, double missing = std::nan("")) { return j.is_number() ? j.get<double>() : missing; }
std::string Str(const json& j) { return j.is_string() ? j.get<std::string>() : ""; }

// How the outputs print a change: "+3.02%".
std::string Pct(double fraction) { return std::isnan(fraction) ? "n/a" : fmt::format("{:+.2f}%", fraction * 100.0); }
std::string Pct2(double fraction) { return fmt::format("{:.2f}%", fraction * 100.0); }

int Rank(const std::string& verdict) { return verdict == "FAIL" ? 2 : verdict == "INCONCLUSIVE" ? 1 : 0; }

class Checker {
 public:
  explicit Checker(const AbOutputs& o) : o_(o) {}

  std::vector<std::string> Run() {
    try {
      j_ = json::parse(o_.json);
    } catch (const std::exception& e) {
      return {fmt::format("the JSON does not parse: {}", e.what())};
    }
    if (Str(j_["schema"]) != "tare.ab/1") Problem("the JSON's schema is '{}', not tare.ab/1", Str(j_["schema"]));
    ExpectedOutcome();
    for (const auto& c : j_["comparisons"]) Comparison(c);
    Title();
    CountsLine();
    Rows();
    Summary();
    Html();
    ExitStatus();
    return problems_;
  }

 private:
  template <typename... Args>
  void Problem(fmt::format_string<Args...> f, Args&&... args) {
    problems_.push_back(fmt::format(f, std::forward<Args>(args)...));
  }

  static bool Unmeasurable(const json& c) {
    return c["broken"].is_object() && c["broken"]["cannot_be_measured"] == true;
  }
  std::string Who(const json& c) const { return fmt::format("{} / {}", Str(c["cell"]), Str(c["head"])); }

  // The outcome from the comparisons, checks, suite and state, ranked as the exit status
  // (docs/campaign.md, "Exit status").
  void ExpectedOutcome() {
    bool fail = false, inconclusive = false, gate = false, bound = false;
    for (const auto& c : j_["comparisons"]) {
      fail = fail || Str(c["verdict"]) == "FAIL";
      inconclusive = inconclusive || Str(c["verdict"]) == "INCONCLUSIVE";
    }
    for (const auto& ch : j_["checks"]) {
      if (ch["ok"] == true) continue;
      (Str(ch["kind"]) == "gate" ? gate : bound) = true;
    }
    const std::string state = Str(j_["state"]);
    worst_ = fail ? "FAIL" : inconclusive ? "INCONCLUSIVE" : "PASS";
    no_verdict_ = j_["outcome"].is_null();
    if (gate && state != "stopped" && state != "interrupted") {
      Problem("a sanity gate is violated but the cohort is '{}', not stopped", state);
    }
    word_ = state == "interrupted"              ? "INTERRUPTED"
            : state == "stopped" || gate        ? "STOPPED"
            : bound                             ? "BOUND VIOLATED"
            : j_["suite"]["ok"] == false        ? "SUITE CHANGED"
            : no_verdict_                       ? "INCONCLUSIVE"
            : fail                              ? "FAIL"
            : !j_["cannot_be_measured"].empty() ? "BROKEN"
            : inconclusive                      ? "INCONCLUSIVE"
                                                : "PASS";
    gate_text_ = bound || gate || j_["suite"]["ok"] == false;
    if (!no_verdict_ && Str(j_["outcome"]) != worst_) {
      Problem("JSON outcome is {} but the worst comparison is {}", Str(j_["outcome"]), worst_);
    }
    if (j_.contains("gate_outcome") && Str(j_["gate_outcome"]) != word_) {
      Problem("JSON gate_outcome is {} but the comparisons, checks and suite make it {}", Str(j_["gate_outcome"]),
              word_);
    }
    for (const auto& c : j_["cohorts"]) {
      if (c["current"] == true && c["outcome"].is_string() && Str(c["outcome"]) != word_) {
        Problem("the current cohort's outcome is {} but the outcome is {}", Str(c["outcome"]), word_);
      }
    }
  }

  // §5, from the JSON's numbers: what the verdict, the gain and the certified bound must be.
  void Metric(const json& c, const json& m) {
    const std::string who = fmt::format("{} {}", Who(c), Str(m["metric"]));
    const std::string verdict = Str(m["verdict"]);
    const bool lower = Str(m["direction"]) != "higher";
    const double est = Num(m["change"]["estimate"]), lo = Num(m["change"]["lo"]), hi = Num(m["change"]["hi"]);
    const double delta = Num(m["delta"], kInf), declared = Num(m["declared_allowance"], 0);
    const double bound = Num(m["pass_bound"], kInf);
    const bool gain = m["supported_gain"] == true;
    if (verdict == "PASS") {
      for (const auto& r : m["reasons"]) {
        if (Str(r).find("INCONCLUSIVE") != std::string::npos) Problem("{}: a PASS with the reason \"{}\"", who, Str(r));
      }
    }
    if (m["exact"] == true) {
      const double w = lower ? est : -est;
      const std::string want = w > delta + kEps ? "FAIL" : "PASS";
      if (verdict != want)
        Problem("{}: exact change {} against {} is {}, not {}", who, Pct(est), Pct2(delta), want, verdict);
      if (verdict == "PASS" && std::fabs(bound - w) > kEps)
        Problem("{}: an exact PASS certifies {}, not {}", who, Pct(w), Pct(bound));
      if (gain != (verdict == "PASS" && w < -delta - kEps))
        Problem("{}: supported_gain {} for an exact change {}", who, gain, Pct(est));
      return;
    }
    if (std::isnan(lo) || std::isnan(hi)) {
      if (verdict != "INCONCLUSIVE" || gain) Problem("{}: {} without an interval", who, verdict);
      return;
    }
    const double w_lo = lower ? lo : -hi, w_hi = lower ? hi : -lo;
    // The floors: F, what a FAIL or a gain must clear; P, what a PASS adds (docs/methodology.md §6).
    double floor = 0, pass_floor = 0;
    const json& null_arm = m["null"];
    if (null_arm.is_object()) {
      const double n_est = Num(null_arm["estimate"]), n_lo = Num(null_arm["lo"]), n_hi = Num(null_arm["hi"]);
      const std::string rule = Str(j_["noise_floor_rule"]);
      if (std::isnan(n_est) || std::isnan(n_lo) || std::isnan(n_hi)) {
        floor = pass_floor = kInf;
      } else {
        const double edge = std::max(std::fabs(n_lo), std::fabs(n_hi));
        const bool excludes_zero = n_lo > 0 || n_hi < 0;
        floor = rule == "null-interval-edge-v1" || (rule == "null-split-v1" && excludes_zero) ? edge : std::fabs(n_est);
        pass_floor = rule == "null-estimate-v1" ? floor : edge;
      }
      if (std::fabs(Num(null_arm["noise_floor"], kInf) - floor) > kEps &&
          !(std::isinf(floor) && null_arm["noise_floor"].is_null())) {
        Problem("{}: noise floor {} where the null arm [{}, {}] gives {}", who, Num(null_arm["noise_floor"]),
                Pct(Num(null_arm["lo"])), Pct(Num(null_arm["hi"])), floor);
      }
    }
    if (std::fabs(delta - std::max(declared, floor)) > kEps && !(std::isinf(delta) && std::isinf(floor))) {
      Problem("{}: δ {} is not max(allowance {}, floor {})", who, Pct2(delta), Pct2(declared), Pct2(floor));
    }
    const bool noise = Str(m["allowance"]) == "noise";
    const double b = !noise ? declared : null_arm.is_object() ? Num(j_["noise_cap"], 0) : 0;
    std::string want;
    double want_bound = kInf;
    if (w_lo > delta + kEps) {
      want = "FAIL";
    } else if (noise && w_lo > kEps && floor > 0) {
      want = "INCONCLUSIVE";  // a change detected within the floor
    } else if (w_hi < -floor - kEps) {
      want = "PASS";
      want_bound = w_hi + floor;  // a supported gain certifies its gain, whatever P
    } else if (w_hi + pass_floor <= b + kEps) {
      want = "PASS";
      want_bound = w_hi + pass_floor;
    } else {
      want = "INCONCLUSIVE";
    }
    // At the edges of a rule the arithmetic may round either way: only a clear disagreement counts.
    const bool at_an_edge =
        std::fabs(w_lo - delta) < 1e-7 || std::fabs(w_hi + floor) < 1e-7 || std::fabs(w_hi + pass_floor - b) < 1e-7;
    if (verdict != want && !at_an_edge) {
      Problem("{}: {} where §5 gives {} (interval [{}, {}], δ {}, F {}, P {}, B {})", who, verdict, want, Pct(lo),
              Pct(hi), Pct2(delta), Pct2(floor), Pct2(pass_floor), Pct2(b));
    }
    const bool want_gain = w_hi < -floor - kEps && verdict != "FAIL";
    if (gain != want_gain && !at_an_edge)
      Problem("{}: supported_gain {} for the interval [{}, {}] and F {}", who, gain, Pct(lo), Pct(hi), Pct2(floor));
    if (verdict == "PASS" && want == "PASS" && std::fabs(bound - want_bound) > 1e-7) {
      Problem("{}: PASS certifies {} where §5 gives {}", who, Pct(lower ? bound : -bound),
              Pct(lower ? want_bound : -want_bound));
    }
    const bool changed = verdict == "PASS" && (lo > 0 || hi < 0);
    if ((m["changed"] == true) != changed)
      Problem("{}: changed is {} for a {} of [{}, {}]", who, m["changed"] == true, verdict, Pct(lo), Pct(hi));
  }

  void Comparison(const json& c) {
    int worst = 0;
    bool any_gain = false;
    const bool broken = c["broken"].is_object();
    if (!broken) {
      for (const auto& m : c["metrics"]) {
        Metric(c, m);
        worst = std::max(worst, Rank(Str(m["verdict"])));
        any_gain = any_gain || m["supported_gain"] == true;
      }
    }
    const std::string verdict = Str(c["verdict"]);
    if (Unmeasurable(c) && verdict != "INCONCLUSIVE") Problem("{}: cannot be measured, yet {}", Who(c), verdict);
    if (Rank(verdict) < worst) Problem("{}: {} though a metric is worse", Who(c), verdict);
    if (Rank(verdict) > worst && c["reasons"].empty())
      Problem("{}: {} with no reason beyond its metrics'", Who(c), verdict);
    if (!broken && (c["supported_gain"] == true) != any_gain)
      Problem("{}: supported_gain disagrees with its metrics", Who(c));
    if (verdict == "PASS") {
      for (const auto& r : c["reasons"]) {
        if (Str(r).find("INCONCLUSIVE") != std::string::npos)
          Problem("{}: a PASS with the reason \"{}\"", Who(c), Str(r));
      }
    }
    // The cross-check's words agree with the signs of its figures.
    const json& x = c["cross_check"];
    if (x.is_object() && x.contains("phrase") && x["phrase"].is_string()) {
      const std::string phrase = Str(x["phrase"]);
      const double t = Num(x["time_change"]), i = Num(x["instructions_change"]);
      auto says = [&](const char* words) { return phrase.find(words) != std::string::npos; };
      if (says("not ") || (i < 0 && (says("more work") || says("more instructions"))) ||
          (i > 0 && (says("less work") || says("fewer instructions"))) || (t > 0 && says("faster")) ||
          (t < 0 && says("slower")) || (says("same work") && std::fabs(i) > 0.005)) {
        Problem("{}: the cross-check says \"{}\" for time {} and instructions {}", Who(c), phrase, Pct(t), Pct(i));
      }
    }
  }

  // "## tare ab: NAME — **WORD**..."
  void Title() {
    const std::string first = o_.ledger.substr(0, o_.ledger.find('\n'));
    const size_t dash = first.rfind(" — ");
    if (first.rfind("## tare ab: ", 0) != 0 || dash == std::string::npos) {
      Problem("the ledger does not open with its title: {}", first);
      return;
    }
    const std::string rest = first.substr(dash + std::string(" — ").size());
    std::string word = "no verdict";
    if (rest.rfind("**", 0) == 0) word = rest.substr(2, rest.find("**", 2) - 2);
    const std::string want = no_verdict_ && word_ == "INCONCLUSIVE" ? "no verdict" : word_;
    if (word != want) Problem("the ledger's title says {} but the outcome is {}", word, want);
    if (word != "PASS") return;
    double widest = -kInf;
    for (const auto& c : j_["comparisons"]) {
      for (const auto& m : c["metrics"]) {
        if (Str(m["verdict"]) == "PASS" && m["pass_bound"].is_number()) widest = std::max(widest, Num(m["pass_bound"]));
      }
    }
    if (!std::isfinite(widest)) return;
    const std::string claim =
        widest < 0 ? "better than base by at least " + Pct2(-widest) : "no regression beyond " + Pct2(widest);
    if (rest.find(claim) == std::string::npos) Problem("the title's PASS claims \"{}\", not \"{}\"", rest, claim);
  }

  struct Tally {
    int64_t fail = 0, broken = 0, inconclusive = 0, pass = 0, gains = 0;
    bool operator==(const Tally&) const = default;
  };
  static std::string Text(const Tally& n) {
    return fmt::format("{} FAIL, {} BROKEN, {} INCONCLUSIVE, {} PASS ({} gains)", n.fail, n.broken, n.inconclusive,
                       n.pass, n.gains);
  }

  Tally FromJson() const {
    Tally n;
    for (const auto& c : j_["comparisons"]) {
      const std::string v = Str(c["verdict"]);
      if (Unmeasurable(c)) {
        ++n.broken;
      } else if (v == "FAIL") {
        ++n.fail;
      } else if (v == "INCONCLUSIVE") {
        ++n.inconclusive;
      } else {
        ++n.pass;
        bool gain = false;
        for (const auto& m : c["metrics"]) gain = gain || m["supported_gain"] == true;
        n.gains += gain ? 1 : 0;
      }
    }
    return n;
  }

  // "**1 FAIL** · 7 INCONCLUSIVE · 2 PASS (1 gain) — 10 cells; **1 release bound violated** (exit 4); ...",
  // the first line after the title.
  void CountsLine() {
    if (j_["comparisons"].empty()) return;
    std::istringstream in(o_.ledger);
    std::string line;
    std::getline(in, line);  // the title
    while (std::getline(in, line) && line.empty()) {
    }
    std::string plain;
    for (char ch : line) {
      if (ch != '*') plain += ch;
    }
    auto count = [&](const std::string& pattern) -> int64_t {
      std::smatch m;
      return std::regex_search(plain, m, std::regex(pattern)) ? std::stoll(m[1]) : 0;
    };
    const Tally printed{count("(\\d+) FAIL"), count("(\\d+) BROKEN"), count("(\\d+) INCONCLUSIVE"),
                        count("(\\d+) PASS"), count("\\((\\d+) gains?\\)")};
    if (!(printed == FromJson()))
      Problem("the counts line says {} but the JSON has {}", Text(printed), Text(FromJson()));
    const bool says_gate =
        plain.find("violated") != std::string::npos || plain.find("suite changed") != std::string::npos;
    if (says_gate != gate_text_)
      Problem("the counts line {} a violated bound, gate or suite: {}", says_gate ? "names" : "omits", line);
    counts_line_ = printed;
  }

  // The head's label in a several-heads table: "hd02 (bench_v3)".
  std::string HeadLabel(const std::string& head) const {
    for (const auto& a : j_["arms"]) {
      if (Str(a["name"]) == head && !Str(a["source"]).empty()) {
        return head + " (" + std::filesystem::path(Str(a["source"])).filename().string() + ")";
      }
    }
    return head;
  }

  static std::vector<std::string> Columns(const std::string& row) {
    std::vector<std::string> out;
    std::string inner = row.substr(2, row.size() - 4);  // "| a | b |" -> "a | b"
    for (size_t at = 0;;) {
      const size_t bar = inner.find(" | ", at);
      out.push_back(inner.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
      if (bar == std::string::npos) break;
      at = bar + 3;
    }
    return out;
  }

  // Each row of the cell tables against its comparison.
  void Rows() {
    std::istringstream in(o_.ledger);
    std::string line;
    std::vector<std::string> header;
    std::map<std::string, int> seen;
    Tally rows;
    while (std::getline(in, line)) {
      if (line.rfind("| cell |", 0) == 0 && line.find("| verdict | supported gain |") != std::string::npos) {
        header = Columns(line);
        continue;
      }
      if (header.empty()) continue;
      if (line.rfind("|---", 0) == 0) continue;
      if (line.rfind("| ", 0) != 0) {
        header.clear();
        continue;
      }
      Row(header, Columns(line), line, seen, rows);
    }
    // A ledger cut to fit a comment says what it left out (report/ledger_fit.h): then not every
    // comparison has its row.
    const bool shortened = o_.ledger.find("_… and ") != std::string::npos ||
                           o_.ledger.find(" PASS row without a supported gain: ") != std::string::npos ||
                           o_.ledger.find(" PASS rows without a supported gain: ") != std::string::npos;
    for (const auto& c : j_["comparisons"]) {
      if (!shortened && seen[Key(c)] != 1) Problem("{}: {} rows in the ledger, not 1", Who(c), seen[Key(c)]);
    }
    if (!shortened && !j_["comparisons"].empty() && !(rows == counts_line_)) {
      Problem("the rows are {} but the counts line says {}", Text(rows), Text(counts_line_));
    }
  }

  std::string Key(const json& c) const { return MarkdownCode(Str(c["cell"])) + "\n" + Str(c["head"]); }

  void Row(const std::vector<std::string>& header, const std::vector<std::string>& cols, const std::string& line,
           std::map<std::string, int>& seen, Tally& rows) {
    const bool heads = header.size() > 1 && header[1] == "head";
    const size_t verdict_at = heads ? 3 : 2;
    if (cols.size() != header.size()) {
      Problem("a row has {} columns, its table {}: {}", cols.size(), header.size(), line);
      return;
    }
    const json* match = nullptr;
    for (const auto& c : j_["comparisons"]) {
      if (MarkdownCode(Str(c["cell"])) == cols[0] && (!heads || MarkdownText(HeadLabel(Str(c["head"]))) == cols[1]))
        match = &c;
    }
    if (match == nullptr) {
      Problem("a row matches no comparison of the JSON: {}", line);
      return;
    }
    const json& c = *match;
    ++seen[Key(c)];
    // The verdict word, and what it carries: "**FAIL** (same work)", "**BROKEN** (cannot be measured)".
    const std::string& cell = cols[verdict_at];
    const std::string word = cell.rfind("**", 0) == 0 ? cell.substr(2, cell.find("**", 2) - 2) : cell;
    const std::string want = Unmeasurable(c) ? "BROKEN" : Str(c["verdict"]);
    if (word != want) Problem("{}: the row says {}, the JSON {}", Who(c), word, want);
    (word == "FAIL"           ? rows.fail
     : word == "BROKEN"       ? rows.broken
     : word == "INCONCLUSIVE" ? rows.inconclusive
                              : rows.pass)++;
    const json& x = c["cross_check"];
    if (x.is_object() && x["reading"].is_string() && !c["broken"].is_object()) {
      const std::string words = x.contains("phrase") && x["phrase"].is_string() ? Str(x["phrase"]) : Str(x["reading"]);
      if (cell != "**" + word + "** (" + words + ")")
        Problem("{}: the row's verdict reads \"{}\", the cross-check \"{}\"", Who(c), cell, words);
    }
    const bool gain_column = cols[verdict_at + 1].rfind("yes", 0) == 0;
    if (gain_column != (c["supported_gain"] == true))
      Problem("{}: the supported gain column says \"{}\"", Who(c), cols[verdict_at + 1]);
    if (word == "PASS" && gain_column) ++rows.gains;
    if (c["broken"].is_object()) return;  // no pair: its metric cells say nothing
    for (size_t k = verdict_at + 3; k < header.size(); ++k) {
      for (const auto& m : c["metrics"]) {
        if (MarkdownText(Str(m["metric"])) == header[k]) MetricCell(c, m, cols[k]);
      }
    }
  }

  // "+3.02% [+2.41%, +3.70%] / noise (δ 0.61%) **FAIL**<br>12.1 ms → 12.5 ms"
  void MetricCell(const json& c, const json& m, const std::string& text) {
    const std::string who = fmt::format("{} {}", Who(c), Str(m["metric"]));
    const double est = Num(m["change"]["estimate"]), lo = Num(m["change"]["lo"]), hi = Num(m["change"]["hi"]);
    const std::string change = m["exact"] == true ? Pct(est) + " exact (deterministic)"
                               : std::isnan(lo) || std::isnan(hi)
                                   ? fmt::format("{} [no interval at {} pairs]", Pct(est), m["pairs"].get<int64_t>())
                                   : fmt::format("{} [{}, {}]", Pct(est), Pct(lo), Pct(hi));
    if (text.rfind(change + " / ", 0) != 0)
      Problem("{}: the line reads \"{}\", the JSON's change is {}", who, text, change);
    const std::string verdict = Str(m["verdict"]);
    const size_t at = text.find("**" + verdict + "**");
    if (at == std::string::npos) {
      Problem("{}: the line does not say {}: {}", who, verdict, text);
      return;
    }
    const double delta = Num(m["delta"], kInf);
    if ((Str(m["allowance"]) == "noise" || delta > Num(m["declared_allowance"], 0)) &&
        text.find(fmt::format("(δ {})", std::isinf(delta) ? "unknown" : Pct2(delta))) == std::string::npos) {
      Problem("{}: the line does not show δ {}: {}", who, Pct2(delta), text);
    }
    const std::string after = text.substr(at + verdict.size() + 4, text.find("<br>", at) - at - verdict.size() - 4);
    if (verdict == "PASS" && m["pass_bound"].is_number()) {
      const bool lower = Str(m["direction"]) != "higher";
      std::string bound = Pct(lower ? Num(m["pass_bound"]) : -Num(m["pass_bound"]));
      if (bound[0] == '-') bound = "−" + bound.substr(1);
      const std::string want =
          fmt::format(" {} {}{}", lower ? "≤" : "≥", bound, m["changed"] == true ? ", changed" : "");
      if (after != want) Problem("{}: the PASS certifies \"{}\", the JSON \"{}\"", who, after, want);
    } else if (verdict == "INCONCLUSIVE" && !m["reasons"].empty()) {
      if (after != ": " + MarkdownText(Str(m["reasons"][0])))
        Problem("{}: the INCONCLUSIVE says \"{}\", not its reason", who, after);
    } else if (!after.empty()) {
      Problem("{}: the {} carries \"{}\"", who, verdict, after);
    }
    // Medians outside the interval by more than a point say so (report/medians.h's rule).
    const double base = Num(m["base_median"]), head = Num(m["head_median"]);
    const double medians = base > 0 && head > 0 ? head / base - 1 : std::nan("");
    const bool disagree = m["exact"] != true && !std::isnan(medians) && !std::isnan(lo) && !std::isnan(hi) &&
                          (medians < lo - 0.01 || medians > hi + 0.01);
    const bool noted = text.find("medians of each arm differ by " + Pct(medians)) != std::string::npos;
    if (disagree != noted)
      Problem("{}: medians {} beside [{}, {}], {} on the line", who, Pct(medians), Pct(lo), Pct(hi),
              noted ? "noted" : "not noted");
    if (m.contains("medians_disagree") && (m["medians_disagree"] == true) != disagree) {
      Problem("{}: JSON medians_disagree is {}", who, m["medians_disagree"] == true);
    }
  }

  // The terminal summary: its first line's word and counts, and every metric's verdict line, in order.
  void Summary() {
    if (o_.summary.empty()) return;
    std::istringstream in(o_.summary);
    std::string first;
    std::getline(in, first);
    const size_t colon = first.find("): "), dash = first.find(" — ");
    const std::string word =
        colon == std::string::npos || dash == std::string::npos ? first : first.substr(colon + 3, dash - colon - 3);
    const std::string want = no_verdict_ && word_ == "INCONCLUSIVE" ? "no verdict" : word_;
    if (word != want) Problem("the summary says {} but the outcome is {}", word, want);
    const Tally n = FromJson();
    if (first.find(fmt::format("{} PASS, {} FAIL, {} INCONCLUSIVE", n.pass, n.fail, n.inconclusive)) ==
        std::string::npos) {
      Problem("the summary's counts are not the JSON's ({}): {}", Text(n), first);
    }
    std::vector<std::string> lines;
    int64_t notes = 0;
    for (std::string line; std::getline(in, line);) {
      for (const char* v : {"PASS", "FAIL", "INCONCLUSIVE"}) {
        if (line.rfind(std::string("  ") + v + " ", 0) == 0 || line == std::string("  ") + v) lines.push_back(line);
      }
      notes += line.rfind("    note: medians of each arm differ", 0) == 0 ? 1 : 0;
    }
    size_t k = 0;
    int64_t disagree = 0;
    for (const auto& c : j_["comparisons"]) {
      if (c["broken"].is_object()) continue;
      for (const auto& m : c["metrics"]) {
        disagree += m["medians_disagree"] == true ? 1 : 0;
        if (k >= lines.size()) {
          Problem("the summary has no line for {} {}", Who(c), Str(m["metric"]));
          continue;
        }
        const std::string& line = lines[k++];
        std::string want_start = "  " + Str(m["verdict"]);
        if (Str(m["verdict"]) == "PASS" && m["pass_bound"].is_number()) {
          const bool lower = Str(m["direction"]) != "higher";
          want_start +=
              fmt::format(" {} {}", lower ? "<=" : ">=", Pct(lower ? Num(m["pass_bound"]) : -Num(m["pass_bound"])));
        }
        if (line.rfind(want_start, 0) != 0)
          Problem("the summary reads \"{}\" for {} {}, not \"{}\"", line, Who(c), Str(m["metric"]), want_start);
      }
    }
    if (notes != disagree) Problem("the summary notes {} medians, the JSON {}", notes, disagree);
  }

  void Html() {
    if (o_.html.empty()) return;
    const size_t open = o_.html.find("<title>"), close = o_.html.find("</title>");
    if (open == std::string::npos || close == std::string::npos) {
      Problem("the HTML page has no title");
      return;
    }
    const std::string title = o_.html.substr(open + 7, close - open - 7);
    const size_t dash = title.rfind(" — ");
    const std::string word = dash == std::string::npos ? title : title.substr(dash + std::string(" — ").size());
    const std::string want = no_verdict_ && word_ == "INCONCLUSIVE" ? "no verdict" : word_;
    if (word != want) Problem("the HTML title says {} but the outcome is {}", word, want);
  }

  void ExitStatus() {
    if (!o_.exit_status) return;
    const int want = word_ == "INTERRUPTED"                                                        ? 130
                     : word_ == "STOPPED" || word_ == "BOUND VIOLATED" || word_ == "SUITE CHANGED" ? 4
                     : word_ == "FAIL"                                                             ? 1
                     : word_ == "BROKEN"                                                           ? 5
                     : word_ == "INCONCLUSIVE" ? (o_.inconclusive_ok ? 0 : 3)
                                               : 0;
    if (*o_.exit_status != want)
      Problem("tare ab exited {} but the outcome {} is exit {}", *o_.exit_status, word_, want);
  }

  const AbOutputs& o_;
  json j_;
  std::string word_;   // the outcome, ranked as the exit status
  std::string worst_;  // the worst comparison's verdict
  bool no_verdict_ = false;
  bool gate_text_ = false;  // a bound, gate or suite ranks above the verdicts
  Tally counts_line_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> CheckAbOutputs(const AbOutputs& outputs) { return Checker(outputs).Run(); }

std::string DescribeProblems(const std::vector<std::string>& problems) {
  std::string out;
  for (const auto& p : problems) out += "\n  " + p;
  return out;
}

}  // namespace tare::report
