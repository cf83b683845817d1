#include "attrib/callgrind_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <tuple>
#include <unordered_map>

#include "base/files.h"

namespace tare::attrib {
namespace {

constexpr std::string_view kWhitespace = " \t\r";

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(kWhitespace);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(kWhitespace);
  return s.substr(b, e - b + 1);
}

void SplitWordsInto(std::string_view s, std::vector<std::string_view>* words) {
  std::vector<std::string_view>& out = *words;
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
}

std::vector<std::string_view> SplitWords(std::string_view s) {
  std::vector<std::string_view> out;
  SplitWordsInto(s, &out);
  return out;
}

// Number := decimal digits | "0x" hex digits. Whole token, no sign, no overflow.
std::optional<uint64_t> ParseNumber(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

void AddInto(CostVector* acc, const CostVector& add) {
  if (acc->size() < add.size()) acc->resize(add.size(), 0);
  for (size_t i = 0; i < add.size(); ++i) (*acc)[i] += add[i];
}

// Position specifications share three name-compression tables: objects (ob=, cob=), files (fl=,
// fi=, fe=, cfi=, cfl=, jfi=) and functions (fn=, cfn=, jfn=, frfn=). The format's own example
// defines an id with "cfi=(2) file2.c" and uses it with "fl=(2)", and valgrind numbers each kind
// once per process, so the tables are per kind, not per keyword.
enum NameKind { kObjectName = 0, kFileName = 1, kFunctionName = 2 };
const char* const kNameKindWords[] = {"object", "file", "function"};

struct LineKey {
  size_t fn = 0;
  size_t file = 0;  // index into the parser's file names
  uint64_t line = 0;
  uint64_t instr = 0;
  bool operator==(const LineKey&) const = default;
};

struct LineKeyHash {
  // splitmix64's finaliser, chained over the fields.
  static uint64_t Mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  size_t operator()(const LineKey& k) const {
    return static_cast<size_t>(Mix(k.fn ^ Mix(k.file ^ Mix(k.line ^ Mix(k.instr)))));
  }
};

struct PendingCall {
  bool active = false;
  bool is_call = false;  // false: jump=/jcnd=, whose second line carries no cost
  size_t line_no = 0;
  uint64_t count = 0;
  size_t callee = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  StatusOr<std::vector<Profile>> Run() {
    size_t pos = 0;
    while (pos < text_.size()) {
      size_t nl = text_.find('\n', pos);
      std::string_view line =
          nl == std::string_view::npos ? text_.substr(pos) : text_.substr(pos, nl - pos);
      pos = nl == std::string_view::npos ? text_.size() : nl + 1;
      ++line_no_;
      TARE_RETURN_IF_ERROR(Line(line));
    }
    if (pending_.active) {
      return Error(pending_.line_no,
                   "the file ends after this calls=/jump= line without its cost line; the file "
                   "is truncated (was valgrind killed while writing it?)");
    }
    if (line_no_ == 0) return Error(0, "the file is empty; it is not a callgrind profile");
    TARE_RETURN_IF_ERROR(FinishPart());
    if (parts_.empty()) {
      return Error(line_no_, "no events: line anywhere; this is not a callgrind profile");
    }
    return std::move(parts_);
  }

 private:
  Status Error(size_t line_no, const std::string& what) const {
    if (line_no == 0) return Status::DataLoss(fmt::format("{}: {}", path_, what));
    return Status::DataLoss(fmt::format("{}:{}: {}", path_, line_no, what));
  }

  Status Line(std::string_view raw) {
    std::string_view line = Trim(raw);
    if (pending_.active) {
      // After calls= (or jump=) the very next line is the association's cost line; comments and
      // blank lines may sit between them.
      if (line.empty() || line[0] == '#') return Status::Ok();
      return AssociationLine(line);
    }
    if (line.empty()) return Status::Ok();
    if (line[0] == '#') return Status::Ok();  // comments, "# callgrind format" included
    char c = line[0];
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') return CostLine(line);
    size_t colon = line.find(':');
    size_t eq = line.find('=');
    if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
      std::string_view key = line.substr(0, colon);
      bool alpha = !key.empty() && std::all_of(key.begin(), key.end(), [](char k) {
        return (k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z');
      });
      if (alpha) return HeaderLine(key, Trim(line.substr(colon + 1)));
    }
    if (eq != std::string_view::npos) return SpecLine(line.substr(0, eq), line.substr(eq + 1));
    return Error(line_no_, fmt::format("unrecognised line '{}': expected a header line "
                                       "(key: value), a position (fn=...) or a cost line",
                                       Shorten(line)));
  }

  static std::string Shorten(std::string_view s) {
    return s.size() > 60 ? std::string(s.substr(0, 57)) + "..." : std::string(s);
  }

  // ---- header ----------------------------------------------------------------------------------

  Status HeaderLine(std::string_view key, std::string_view value) {
    if (key == "version") {
      if (part_started_ || !parts_.empty()) {
        return Error(line_no_, "version: must come first in the file (before any part)");
      }
      auto v = ParseNumber(value);
      if (!v) return Error(line_no_, fmt::format("bad version '{}'", Shorten(value)));
      // Version 0 and 1 are the same (Cachegrind-compatible) format; anything else is not.
      if (*v > 1) {
        return Error(line_no_, fmt::format("unsupported callgrind format version {}; tare reads "
                                           "version 1 (valgrind 3.x)", *v));
      }
      return Status::Ok();
    }
    if (key == "creator") {
      creator_ = std::string(value);
      return Status::Ok();
    }
    if (key == "totals") {
      TARE_RETURN_IF_ERROR(NeedEvents("totals:"));
      if (cur_.declared_totals) return Error(line_no_, "a second totals: line in one part");
      TARE_ASSIGN_OR_RETURN(cur_.declared_totals, Costs(SplitWords(value), "totals:"));
      totals_line_ = line_no_;
      in_body_ = true;
      return Status::Ok();
    }
    // Any other header line after a body starts the next part (the format: PartData :=
    // HeaderLine+ BodyLine+; valgrind's --combine-dumps=yes writes parts back to back).
    if (in_body_) TARE_RETURN_IF_ERROR(StartNextPart());
    part_started_ = true;
    if (key == "pid" || key == "thread" || key == "part") {
      auto v = ParseNumber(value);
      if (!v) return Error(line_no_, fmt::format("{}: needs a number, got '{}'", key, Shorten(value)));
      int64_t n = static_cast<int64_t>(*v);
      if (key == "pid") pid_ = n;
      if (key == "thread") cur_.thread = n;
      if (key == "part") cur_.part = n;
    } else if (key == "cmd") {
      cmd_ = std::string(value);
    } else if (key == "desc") {
      size_t colon = value.find(':');
      std::string type(Trim(value.substr(0, colon)));
      std::string text(colon == std::string_view::npos ? "" : Trim(value.substr(colon + 1)));
      if (type == "Trigger") cur_.trigger = text;
      cur_.desc.emplace_back(std::move(type), std::move(text));
    } else if (key == "positions") {
      std::vector<std::string> positions;
      for (auto w : SplitWords(value)) {
        if (w != "instr" && w != "bb" && w != "line") {
          return Error(line_no_, fmt::format("unknown position kind '{}' (known: instr bb line)", w));
        }
        positions.emplace_back(w);
      }
      if (positions.empty()) return Error(line_no_, "positions: lists nothing");
      cur_.positions = std::move(positions);
      line_slot_ = instr_slot_ = -1;
      for (size_t i = 0; i < cur_.positions.size(); ++i) {
        if (cur_.positions[i] == "line") line_slot_ = static_cast<int>(i);
        if (cur_.positions[i] == "instr") instr_slot_ = static_cast<int>(i);
      }
    } else if (key == "events") {
      if (!cur_.events.empty()) return Error(line_no_, "a second events: line in one part");
      for (auto w : SplitWords(value)) {
        if (std::find(cur_.events.begin(), cur_.events.end(), w) != cur_.events.end()) {
          return Error(line_no_, fmt::format("event '{}' listed twice in events:", w));
        }
        cur_.events.emplace_back(w);
      }
      if (cur_.events.empty()) return Error(line_no_, "events: lists no events");
    } else if (key == "event") {
      // "event: Name [= inherited expression] [: long name]"; only the long name is kept.
      size_t colon = value.find(':');
      std::string_view head = Trim(value.substr(0, colon));
      std::string_view name = Trim(head.substr(0, head.find('=')));
      if (!name.empty() && colon != std::string_view::npos) {
        cur_.event_long_names[std::string(name)] = std::string(Trim(value.substr(colon + 1)));
      }
    } else if (key == "summary") {
      TARE_RETURN_IF_ERROR(NeedEvents("summary:"));
      TARE_ASSIGN_OR_RETURN(cur_.summary, Costs(SplitWords(value), "summary:"));
    }
    // Unknown header keys carry no cost; they are ignored so newer valgrinds stay readable.
    return Status::Ok();
  }

  Status NeedEvents(const char* what) const {
    if (cur_.events.empty()) {
      return Error(line_no_, fmt::format("{} before the events: line of this part", what));
    }
    return Status::Ok();
  }

  // ---- position specifications -----------------------------------------------------------------

  Status SpecLine(std::string_view key, std::string_view value) {
    TARE_RETURN_IF_ERROR(NeedEvents(fmt::format("'{}=' line", key).c_str()));
    in_body_ = true;
    if (key == "calls" || key == "jump" || key == "jcnd") return AssociationStart(key, value);
    if (key == "rec" || key == "ln" || key == "bb") return Status::Ok();  // non-default dump options
    NameKind kind;
    if (key == "ob" || key == "cob") {
      kind = kObjectName;
    } else if (key == "fl" || key == "fi" || key == "fe" || key == "cfi" || key == "cfl" ||
               key == "jfi") {
      kind = kFileName;
    } else if (key == "fn" || key == "cfn" || key == "jfn" || key == "frfn") {
      kind = kFunctionName;
    } else {
      return Error(line_no_, fmt::format("unknown position specification '{}='", Shorten(key)));
    }
    TARE_ASSIGN_OR_RETURN(std::string name, Name(kind, value));
    if (key == "ob") {
      ob_ = name;
    } else if (key == "fl") {
      fl_ = name;
      cur_file_ = name;
      cost_file_ = name;
    } else if (key == "fi" || key == "fe") {
      if (!fn_) return Error(line_no_, fmt::format("{}= before any fn=", key));
      cur_file_ = name;
    } else if (key == "fn") {
      fn_ = FunctionIndex(ob_, fl_, name, /*defined=*/true);
      // valgrind restarts the file at the function's own file with every fn= (dump.c resets its
      // last position), so inlined-file state does not leak into the next function.
      cur_file_ = fl_;
      cost_file_ = fl_;
    } else if (key == "cob") {
      cob_ = name;
    } else if (key == "cfi" || key == "cfl") {
      cfi_ = name;
    } else if (key == "cfn") {
      cfn_ = name;
    }
    return Status::Ok();
  }

  // "(id) name" defines id, "(id)" refers to it, anything else is a plain name. A name that starts
  // with '(' but not '(' digit, like "(below main)", is a plain name.
  StatusOr<std::string> Name(NameKind kind, std::string_view value) {
    value = Trim(value);
    if (value.size() < 2 || value[0] != '(' || value[1] < '0' || value[1] > '9') {
      return std::string(value);
    }
    size_t close = value.find(')');
    auto id = close == std::string_view::npos ? std::nullopt : ParseNumber(value.substr(1, close - 1));
    if (!id) return Error(line_no_, fmt::format("bad compressed name '{}'", Shorten(value)));
    std::string_view rest = Trim(value.substr(close + 1));
    auto& table = names_[kind];
    auto it = table.find(*id);
    if (rest.empty()) {
      if (it == table.end()) {
        return Error(line_no_, fmt::format("unknown compressed {} id ({}): no earlier line defines it",
                                           kNameKindWords[kind], *id));
      }
      return it->second;
    }
    if (it != table.end() && it->second != rest) {
      return Error(line_no_, fmt::format("compressed {} id ({}) redefined from '{}' to '{}'",
                                         kNameKindWords[kind], *id, Shorten(it->second),
                                         Shorten(rest)));
    }
    table[*id] = std::string(rest);
    return std::string(rest);
  }

  size_t FunctionIndex(const std::string& object, const std::string& file, const std::string& name,
                       bool defined) {
    std::string key = object + '\0' + file + '\0' + name;
    auto [it, inserted] = fn_index_.emplace(key, cur_.functions.size());
    if (inserted) {
      FunctionCost f;
      f.object = object;
      f.file = file;
      f.name = name;
      f.self.assign(cur_.events.size(), 0);
      cur_.functions.push_back(std::move(f));
      defined_.push_back(false);
    }
    if (defined) defined_[it->second] = true;
    return it->second;
  }

  // ---- calls= / jump= / jcnd= ------------------------------------------------------------------

  Status AssociationStart(std::string_view key, std::string_view value) {
    std::vector<std::string_view> words = SplitWords(value);
    size_t counts = key == "calls" ? 1 : key == "jump" ? 1 : 2;
    if (key == "jcnd" && !words.empty() && words[0].find('/') != std::string_view::npos) {
      counts = 1;  // valgrind writes "jcnd=<followed>/<executed>", the spec "jcnd=<e> <j>"
    }
    if (words.size() < counts) return Error(line_no_, fmt::format("{}= without a count", key));
    auto count = ParseNumber(words[0].substr(0, words[0].find('/')));
    if (!count) return Error(line_no_, fmt::format("bad {}= count '{}'", key, Shorten(words[0])));
    // The target position: validated, but (as in valgrind's writer) it does not move the base of
    // relative subpositions.
    std::vector<std::string_view> target(words.begin() + counts, words.end());
    if (target.size() > cur_.positions.size()) {
      return Error(line_no_, fmt::format("{}= target has {} subpositions, positions: has {}", key,
                                         target.size(), cur_.positions.size()));
    }
    for (size_t i = 0; i < target.size(); ++i) {
      TARE_ASSIGN_OR_RETURN(uint64_t ignored, SubPosition(target[i], last_pos_[i]));
      (void)ignored;
    }
    pending_ = PendingCall{};
    pending_.active = true;
    pending_.line_no = line_no_;
    pending_.is_call = key == "calls";
    pending_.count = *count;
    if (pending_.is_call) {
      if (!fn_) return Error(line_no_, "calls= before any fn=");
      if (!cfn_) return Error(line_no_, "calls= without a cfn= naming the called function");
      // Defaults follow valgrind's writer: cob= only when the callee's object differs from the
      // caller's, cfi= only when its file differs from the file of the last cost line.
      pending_.callee = FunctionIndex(cob_.value_or(ob_), cfi_.value_or(cost_file_), *cfn_,
                                      /*defined=*/false);
    }
    cob_.reset();
    cfi_.reset();
    cfn_.reset();
    return Status::Ok();
  }

  Status AssociationLine(std::string_view line) {
    char c = line[0];
    if (!((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*')) {
      return Error(line_no_, fmt::format("line {} (calls=/jump=) must be followed by its cost line, "
                                         "got '{}'", pending_.line_no, Shorten(line)));
    }
    TARE_RETURN_IF_ERROR(ParseCostLine(line));
    PendingCall call = pending_;
    pending_.active = false;
    if (!call.is_call) return Status::Ok();
    size_t caller = *fn_;
    auto [it, inserted] = edge_index_.emplace(std::make_pair(caller, call.callee), cur_.calls.size());
    if (inserted) {
      CallEdge e;
      e.caller = caller;
      e.callee = call.callee;
      e.inclusive.assign(cur_.events.size(), 0);
      cur_.calls.push_back(std::move(e));
    }
    CallEdge& edge = cur_.calls[it->second];
    edge.calls += call.count;
    AddInto(&edge.inclusive, costs_);
    return Status::Ok();
  }

  // ---- cost lines ------------------------------------------------------------------------------

  StatusOr<uint64_t> SubPosition(std::string_view w, uint64_t last) const {
    if (w == "*") return last;
    if (w[0] == '+' || w[0] == '-') {
      auto d = ParseNumber(w.substr(1));
      if (!d) return Error(line_no_, fmt::format("bad relative subposition '{}'", Shorten(w)));
      if (w[0] == '-' && *d > last) {
        return Error(line_no_, fmt::format("relative subposition '{}' goes below 0 (previous was {})",
                                           w, last));
      }
      return w[0] == '+' ? last + *d : last - *d;
    }
    auto v = ParseNumber(w);
    if (!v) return Error(line_no_, fmt::format("bad subposition '{}'", Shorten(w)));
    return *v;
  }

  StatusOr<CostVector> Costs(const std::vector<std::string_view>& words, const char* what) const {
    CostVector costs;
    TARE_RETURN_IF_ERROR(CostsInto(words.data(), words.data() + words.size(), what, &costs));
    return costs;
  }

  // Missing trailing values are zero.
  Status CostsInto(const std::string_view* begin, const std::string_view* end, const char* what,
                   CostVector* costs) const {
    size_t n = static_cast<size_t>(end - begin);
    if (n > cur_.events.size()) {
      return Error(line_no_, fmt::format("{} has {} values but events: lists {} ({})", what, n,
                                         cur_.events.size(), Join(cur_.events)));
    }
    costs->assign(cur_.events.size(), 0);
    for (size_t i = 0; i < n; ++i) {
      auto v = ParseNumber(begin[i]);
      if (!v) {
        return Error(line_no_, fmt::format("{}: '{}' is not a count (event {})", what,
                                           Shorten(begin[i]), cur_.events[i]));
      }
      (*costs)[i] = *v;
    }
    return Status::Ok();
  }

  // Subpositions then costs, into pos_ and costs_ (reused: this is the hot path).
  Status ParseCostLine(std::string_view line) {
    TARE_RETURN_IF_ERROR(NeedEvents("cost line"));
    SplitWordsInto(line, &words_);
    size_t n = cur_.positions.size();
    if (words_.size() < n) {
      return Error(line_no_, fmt::format("cost line has {} subpositions, positions: ({}) needs {}",
                                         words_.size(), Join(cur_.positions), n));
    }
    pos_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      TARE_ASSIGN_OR_RETURN(pos_[i], SubPosition(words_[i], last_pos_[i]));
    }
    return CostsInto(words_.data() + n, words_.data() + words_.size(), "cost line", &costs_);
  }

  Status CostLine(std::string_view line) {
    in_body_ = true;
    TARE_RETURN_IF_ERROR(ParseCostLine(line));
    if (!fn_) return Error(line_no_, "cost line before any fn= (no function to charge it to)");
    for (size_t i = 0; i < pos_.size(); ++i) last_pos_[i] = pos_[i];
    cost_file_ = cur_file_;
    FunctionCost& f = cur_.functions[*fn_];
    AddInto(&f.self, costs_);
    AddInto(&cur_.totals, costs_);
    LineKey key{*fn_, FileId(cur_file_), line_slot_ >= 0 ? pos_[line_slot_] : 0,
                instr_slot_ >= 0 ? pos_[instr_slot_] : 0};
    AddLineCost(key, costs_.data());
    return Status::Ok();
  }

  void AddLineCost(const LineKey& key, const uint64_t* costs) {
    size_t e = cur_.events.size();
    size_t index;
    auto it = line_index_.find(key);
    if (it != line_index_.end()) {
      index = it->second;
    } else {
      index = line_keys_.size();
      line_index_.emplace(key, index);
      line_keys_.push_back(key);
      line_pool_.resize(line_pool_.size() + e, 0);
    }
    uint64_t* slot = line_pool_.data() + index * e;
    for (size_t i = 0; i < e; ++i) slot[i] += costs[i];
  }

  // ---- parts -----------------------------------------------------------------------------------

  Status StartNextPart() {
    TARE_RETURN_IF_ERROR(FinishPart());
    ResetPart();
    return Status::Ok();
  }

  void ResetPart() {
    int64_t next_index = static_cast<int64_t>(parts_.size()) + 1;
    cur_ = Profile{};
    cur_.part = next_index;
    cur_.positions = {"line"};
    line_slot_ = 0;
    instr_slot_ = -1;
    last_pos_.assign(3, 0);
    in_body_ = false;
    part_started_ = false;
    totals_line_ = 0;
    ob_.clear();
    fl_.clear();
    cur_file_.clear();
    cost_file_.clear();
    fn_.reset();
    cob_.reset();
    cfi_.reset();
    cfn_.reset();
    fn_index_.clear();
    defined_.clear();
    edge_index_.clear();
    line_index_.clear();
    line_keys_.clear();
    line_pool_.clear();
  }

  Status FinishPart() {
    if (!part_started_ && !in_body_) return Status::Ok();  // nothing since the last part
    if (cur_.events.empty()) return Error(line_no_, "this part has no events: line");
    cur_.path = path_;
    cur_.pid = pid_;
    cur_.creator = creator_;
    cur_.cmd = cmd_;
    cur_.totals.resize(cur_.events.size(), 0);
    if (!cur_.declared_totals && creator_.rfind("callgrind", 0) == 0) {
      return Error(line_no_, fmt::format("part {} has no totals: line (callgrind writes one at the "
                                         "end of every part); the file is truncated",
                                         cur_.part));
    }
    if (cur_.declared_totals && *cur_.declared_totals != cur_.totals) {
      std::string diff;
      for (size_t i = 0; i < cur_.events.size(); ++i) {
        if ((*cur_.declared_totals)[i] != cur_.totals[i]) {
          diff = fmt::format("{} = {} but its cost lines add up to {}", cur_.events[i],
                             (*cur_.declared_totals)[i], cur_.totals[i]);
          break;
        }
      }
      return Error(totals_line_, fmt::format("totals: disagrees with the body: {}; the file is "
                                             "corrupt or truncated", diff));
    }
    if (cur_.summary) {
      cur_.summary->resize(cur_.events.size(), 0);
      cur_.summary_consistent = true;
      for (size_t i = 0; i < cur_.events.size(); ++i) {
        if ((*cur_.summary)[i] < cur_.totals[i]) cur_.summary_consistent = false;
      }
    }
    ResolveCallees();
    BuildLines();
    ComputeInclusive();
    parts_.push_back(std::move(cur_));
    return Status::Ok();
  }

  // A callee named only through calls= whose (object, file) was inferred from the defaults may
  // not match the fn= block that defines it when a file changed (fi=) right before the call. If
  // exactly one defined function of that object has the name, the edge belongs to it.
  void ResolveCallees() {
    std::vector<size_t> remap(cur_.functions.size());
    for (size_t i = 0; i < remap.size(); ++i) remap[i] = i;
    for (size_t i = 0; i < cur_.functions.size(); ++i) {
      if (defined_[i]) continue;
      std::optional<size_t> match;
      int matches = 0;
      for (size_t j = 0; j < cur_.functions.size(); ++j) {
        if (defined_[j] && cur_.functions[j].object == cur_.functions[i].object &&
            cur_.functions[j].name == cur_.functions[i].name) {
          match = j;
          ++matches;
        }
      }
      if (matches == 1) remap[i] = *match;
    }
    // Drop the placeholders that were merged; keep the order of the rest.
    std::vector<FunctionCost> kept;
    std::vector<size_t> new_index(cur_.functions.size());
    for (size_t i = 0; i < cur_.functions.size(); ++i) {
      if (remap[i] != i) continue;
      new_index[i] = kept.size();
      kept.push_back(std::move(cur_.functions[i]));
    }
    std::map<std::pair<size_t, size_t>, size_t> merged;
    std::vector<CallEdge> edges;
    for (auto& e : cur_.calls) {
      size_t caller = new_index[remap[e.caller]];
      size_t callee = new_index[remap[e.callee]];
      auto [it, inserted] = merged.emplace(std::make_pair(caller, callee), edges.size());
      if (inserted) {
        e.caller = caller;
        e.callee = callee;
        edges.push_back(std::move(e));
      } else {
        edges[it->second].calls += e.calls;
        AddInto(&edges[it->second].inclusive, e.inclusive);
      }
    }
    // Line costs are keyed by the old indices; rebuild them only if a function moved.
    bool moved = false;
    for (size_t i = 0; i < remap.size(); ++i) moved |= new_index[remap[i]] != i;
    if (moved) {
      std::vector<LineKey> keys = std::move(line_keys_);
      std::vector<uint64_t> pool = std::move(line_pool_);
      line_index_.clear();
      line_keys_.clear();
      line_pool_.clear();
      for (size_t i = 0; i < keys.size(); ++i) {
        LineKey k = keys[i];
        k.fn = new_index[remap[k.fn]];
        AddLineCost(k, pool.data() + i * cur_.events.size());
      }
    }
    cur_.functions = std::move(kept);
    cur_.calls = std::move(edges);
  }

  void BuildLines() {
    size_t e = cur_.events.size();
    // Files in name order, so lines sort by name without comparing strings per pair.
    std::vector<size_t> by_name(file_names_.size()), rank(file_names_.size());
    for (size_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
    std::sort(by_name.begin(), by_name.end(),
              [&](size_t a, size_t b) { return file_names_[a] < file_names_[b]; });
    for (size_t i = 0; i < by_name.size(); ++i) rank[by_name[i]] = i;
    std::vector<size_t> order(line_keys_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const LineKey& x = line_keys_[a];
      const LineKey& y = line_keys_[b];
      return std::tie(x.fn, rank[x.file], x.line, x.instr) <
             std::tie(y.fn, rank[y.file], y.line, y.instr);
    });
    for (size_t i : order) {
      const LineKey& k = line_keys_[i];
      LineCost lc;
      lc.file = file_names_[k.file];
      lc.line = k.line;
      lc.instr = k.instr;
      lc.self.assign(line_pool_.begin() + i * e, line_pool_.begin() + (i + 1) * e);
      cur_.functions[k.fn].lines.push_back(std::move(lc));
    }
  }

  void ComputeInclusive() {
    for (auto& f : cur_.functions) {
      f.self.resize(cur_.events.size(), 0);
      f.inclusive = f.self;
    }
    for (const auto& e : cur_.calls) {
      cur_.functions[e.callee].calls += e.calls;
      if (e.caller != e.callee) AddInto(&cur_.functions[e.caller].inclusive, e.inclusive);
    }
  }

  size_t FileId(const std::string& file) {
    if (file == last_file_name_ && last_file_id_ < file_names_.size()) return last_file_id_;
    auto [it, inserted] = file_ids_.emplace(file, file_names_.size());
    if (inserted) file_names_.push_back(file);
    last_file_name_ = file;
    last_file_id_ = it->second;
    return it->second;
  }



  std::string_view text_;
  std::string path_;
  size_t line_no_ = 0;

  // Per file.
  std::string creator_;
  std::string cmd_;
  int64_t pid_ = 0;
  std::unordered_map<uint64_t, std::string> names_[3];
  std::vector<Profile> parts_;

  // Per part.
  Profile cur_ = [] {
    Profile p;
    p.part = 1;
    p.positions = {"line"};
    return p;
  }();
  bool in_body_ = false;
  bool part_started_ = false;
  size_t totals_line_ = 0;
  std::string ob_, fl_;
  std::string cur_file_;   // file of the next cost line (fl=, changed by fi=/fe=)
  std::string cost_file_;  // file of the last cost line: the default file of a callee
  std::optional<size_t> fn_;
  std::optional<std::string> cob_, cfi_, cfn_;
  std::unordered_map<std::string, size_t> fn_index_;
  std::vector<bool> defined_;
  std::map<std::pair<size_t, size_t>, size_t> edge_index_;
  // Self cost per (function, file, line, instr): keys in first-seen order, costs in one flat pool.
  std::unordered_map<LineKey, size_t, LineKeyHash> line_index_;
  std::vector<LineKey> line_keys_;
  std::vector<uint64_t> line_pool_;
  std::vector<std::string_view> words_;
  std::vector<uint64_t> pos_;
  CostVector costs_;
  std::unordered_map<std::string, size_t> file_ids_;
  std::vector<std::string> file_names_;
  std::string last_file_name_;
  size_t last_file_id_ = SIZE_MAX;
  int line_slot_ = 0;    // index of "line" in positions, -1 if absent
  int instr_slot_ = -1;  // index of "instr" in positions, -1 if absent
  std::vector<uint64_t> last_pos_ = std::vector<uint64_t>(3, 0);
  PendingCall pending_;
};

}  // namespace

std::optional<size_t> Profile::EventIndex(std::string_view event) const {
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i] == event) return i;
  }
  return std::nullopt;
}

uint64_t Profile::Total(std::string_view event) const {
  auto i = EventIndex(event);
  return i && *i < totals.size() ? totals[*i] : 0;
}

const FunctionCost* Profile::FindFunction(std::string_view name) const {
  for (const auto& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

CostVector Profile::SelfOf(std::string_view base) const {
  CostVector out(events.size(), 0);
  for (const auto& f : functions) {
    if (BaseFunctionName(f.name) == base) AddInto(&out, f.self);
  }
  return out;
}

CostVector Profile::InclusiveOf(std::string_view base) const {
  CostVector out = SelfOf(base);
  for (const auto& e : calls) {
    if (BaseFunctionName(functions[e.caller].name) == base &&
        BaseFunctionName(functions[e.callee].name) != base) {
      AddInto(&out, e.inclusive);
    }
  }
  return out;
}

std::string BaseFunctionName(std::string_view name) {
  size_t q = name.rfind('\'');
  if (q == std::string_view::npos || q + 1 == name.size()) return std::string(name);
  for (size_t i = q + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::string(name);
  }
  return std::string(name.substr(0, q));
}

StatusOr<std::vector<Profile>> ParseCallgrindProfile(std::string_view text, const std::string& path) {
  Parser parser(text, path);
  return parser.Run();
}

StatusOr<std::vector<Profile>> ReadCallgrindProfile(const std::string& path) {
  TARE_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParseCallgrindProfile(text, path);
}

}  // namespace tare::attrib
