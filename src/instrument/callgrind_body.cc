// Body lines of a callgrind profile: position specifications (ob= fl= fi= fe= fn= and the
// callee's cob= cfi= cfn=), name compression, calls=/jump=/jcnd= associations, and cost lines
// with their subpositions. Part of CallgrindReader (callgrind_reader.h).
#include <fmt/format.h>

#include <limits>

#include "instrument/internal/callgrind_reader.h"
#include "instrument/internal/callgrind_text.h"

namespace tare::instrument::callgrind_internal {
namespace {

const char* const kNameKindWords[] = {"object", "file", "function"};

}  // namespace

Status CallgrindReader::SpecLine(std::string_view key, std::string_view value) {
  TARE_RETURN_IF_ERROR(NeedEvents(fmt::format("'{}=' line", key).c_str()));
  in_body_ = true;
  if (key == "calls" || key == "jump" || key == "jcnd") return AssociationStart(key, value);
  if (key == "rec" || key == "ln" || key == "bb") return Status::Ok();  // non-default dump options
  NameKind kind;
  if (key == "ob" || key == "cob") {
    kind = kObjectName;
  } else if (key == "fl" || key == "fi" || key == "fe" || key == "cfi" || key == "cfl" || key == "jfi") {
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
    fn_ = part_.FunctionIndex(ob_, fl_, name, /*defined=*/true);
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
StatusOr<std::string> CallgrindReader::Name(NameKind kind, std::string_view value) {
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
      return Error(line_no_,
                   fmt::format("unknown compressed {} id ({}): no earlier line defines it", kNameKindWords[kind], *id));
    }
    return it->second;
  }
  if (it != table.end() && it->second != rest) {
    return Error(line_no_, fmt::format("compressed {} id ({}) redefined from '{}' to '{}'", kNameKindWords[kind], *id,
                                       Shorten(it->second), Shorten(rest)));
  }
  table[*id] = std::string(rest);
  return std::string(rest);
}

// ---- calls= / jump= / jcnd= ------------------------------------------------------------------

Status CallgrindReader::AssociationStart(std::string_view key, std::string_view value) {
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
  if (target.size() > cur().positions.size()) {
    return Error(line_no_, fmt::format("{}= target has {} subpositions, positions: has {}", key, target.size(),
                                       cur().positions.size()));
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
    pending_.callee = part_.FunctionIndex(cob_.value_or(ob_), cfi_.value_or(cost_file_), *cfn_,
                                          /*defined=*/false);
  }
  cob_.reset();
  cfi_.reset();
  cfn_.reset();
  return Status::Ok();
}

Status CallgrindReader::AssociationLine(std::string_view line) {
  if (!StartsCostLine(line[0])) {
    return Error(line_no_, fmt::format("line {} (calls=/jump=) must be followed by its cost line, "
                                       "got '{}'",
                                       pending_.line_no, Shorten(line)));
  }
  TARE_RETURN_IF_ERROR(ParseCostLine(line));
  PendingCall call = pending_;
  pending_.active = false;
  if (!call.is_call) return Status::Ok();
  part_.AddCall(*fn_, call.callee, call.count, costs_);
  return Status::Ok();
}

// ---- cost lines ------------------------------------------------------------------------------

StatusOr<uint64_t> CallgrindReader::SubPosition(std::string_view w, uint64_t last) const {
  if (w == "*") return last;
  if (w[0] == '+' || w[0] == '-') {
    auto d = ParseNumber(w.substr(1));
    if (!d) return Error(line_no_, fmt::format("bad relative subposition '{}'", Shorten(w)));
    if (w[0] == '-' && *d > last) {
      return Error(line_no_, fmt::format("relative subposition '{}' goes below 0 (previous was {})", w, last));
    }
    if (w[0] == '+' && *d > std::numeric_limits<uint64_t>::max() - last) {
      return Error(line_no_, fmt::format("relative subposition '{}' goes past 2^64 - 1 (previous "
                                         "was {})",
                                         Shorten(w), last));
    }
    return w[0] == '+' ? last + *d : last - *d;
  }
  auto v = ParseNumber(w);
  if (!v) return Error(line_no_, fmt::format("bad subposition '{}'", Shorten(w)));
  return *v;
}

StatusOr<CostVector> CallgrindReader::Costs(const std::vector<std::string_view>& words, const char* what) {
  CostVector costs;
  TARE_RETURN_IF_ERROR(CostsInto(words.data(), words.data() + words.size(), what, &costs));
  return costs;
}

// Missing trailing values are zero.
Status CallgrindReader::CostsInto(const std::string_view* begin, const std::string_view* end, const char* what,
                                  CostVector* costs) {
  const std::vector<std::string>& events = cur().events;
  size_t n = static_cast<size_t>(end - begin);
  if (n > events.size()) {
    return Error(line_no_,
                 fmt::format("{} has {} values but events: lists {} ({})", what, n, events.size(), Join(events)));
  }
  costs->assign(events.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    auto v = ParseNumber(begin[i]);
    if (!v) {
      return Error(line_no_, fmt::format("{}: '{}' is not a count (event {})", what, Shorten(begin[i]), events[i]));
    }
    (*costs)[i] = *v;
  }
  return Status::Ok();
}

// Subpositions then costs, into pos_ and costs_ (reused: this is the hot path).
Status CallgrindReader::ParseCostLine(std::string_view line) {
  TARE_RETURN_IF_ERROR(NeedEvents("cost line"));
  SplitWordsInto(line, &words_);
  size_t n = cur().positions.size();
  if (words_.size() < n) {
    return Error(line_no_, fmt::format("cost line has {} subpositions, positions: ({}) needs {}", words_.size(),
                                       Join(cur().positions), n));
  }
  pos_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    TARE_ASSIGN_OR_RETURN(pos_[i], SubPosition(words_[i], last_pos_[i]));
  }
  return CostsInto(words_.data() + n, words_.data() + words_.size(), "cost line", &costs_);
}

Status CallgrindReader::CostLine(std::string_view line) {
  in_body_ = true;
  TARE_RETURN_IF_ERROR(ParseCostLine(line));
  if (!fn_) return Error(line_no_, "cost line before any fn= (no function to charge it to)");
  last_pos_ = pos_;
  cost_file_ = cur_file_;
  part_.AddSelfCost(*fn_, cur_file_, line_slot_ >= 0 ? pos_[line_slot_] : 0, instr_slot_ >= 0 ? pos_[instr_slot_] : 0,
                    costs_);
  return Status::Ok();
}

}  // namespace tare::instrument::callgrind_internal
