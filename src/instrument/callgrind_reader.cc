// The line loop, header lines and parts of CallgrindReader (callgrind_reader.h), and
// ParseCallgrindProfile (callgrind_profile.h).
#include "instrument/internal/callgrind_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "instrument/internal/callgrind_text.h"

namespace tare::instrument {
namespace callgrind_internal {

StatusOr<std::vector<Profile>> CallgrindReader::Run() {
  size_t pos = 0;
  while (pos < text_.size()) {
    size_t nl = text_.find('\n', pos);
    std::string_view line = nl == std::string_view::npos ? text_.substr(pos) : text_.substr(pos, nl - pos);
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

Status CallgrindReader::Error(size_t line_no, const std::string& what) const {
  if (line_no == 0) return Status::DataLoss(fmt::format("{}: {}", path_, what));
  return Status::DataLoss(fmt::format("{}:{}: {}", path_, line_no, what));
}

Status CallgrindReader::Line(std::string_view raw) {
  std::string_view line = Trim(raw);
  if (pending_.active) {
    // After calls= (or jump=) the very next line is the association's cost line; comments and
    // blank lines may sit between them.
    if (line.empty() || line[0] == '#') return Status::Ok();
    return AssociationLine(line);
  }
  if (line.empty()) return Status::Ok();
  if (line[0] == '#') return Status::Ok();  // comments, "# callgrind format" included
  if (StartsCostLine(line[0])) return CostLine(line);
  size_t colon = line.find(':');
  size_t eq = line.find('=');
  if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
    std::string_view key = line.substr(0, colon);
    bool alpha = !key.empty() && std::all_of(key.begin(), key.end(),
                                             [](char k) { return (k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z'); });
    if (alpha) return HeaderLine(key, Trim(line.substr(colon + 1)));
  }
  if (eq != std::string_view::npos) return SpecLine(line.substr(0, eq), line.substr(eq + 1));
  return Error(line_no_, fmt::format("unrecognised line '{}': expected a header line "
                                     "(key: value), a position (fn=...) or a cost line",
                                     Shorten(line)));
}

// ---- header ----------------------------------------------------------------------------------

Status CallgrindReader::HeaderLine(std::string_view key, std::string_view value) {
  if (key == "version") {
    if (part_started_ || !parts_.empty()) {
      return Error(line_no_, "version: must come first in the file (before any part)");
    }
    auto v = ParseNumber(value);
    if (!v) return Error(line_no_, fmt::format("bad version '{}'", Shorten(value)));
    // Version 0 and 1 are the same (Cachegrind-compatible) format; anything else is not.
    if (*v > 1) {
      return Error(line_no_, fmt::format("unsupported callgrind format version {}; tare reads "
                                         "version 1 (valgrind 3.x)",
                                         *v));
    }
    return Status::Ok();
  }
  if (key == "creator") {
    creator_ = std::string(value);
    return Status::Ok();
  }
  if (key == "totals") {
    TARE_RETURN_IF_ERROR(NeedEvents("totals:"));
    if (cur().declared_totals) return Error(line_no_, "a second totals: line in one part");
    TARE_ASSIGN_OR_RETURN(cur().declared_totals, Costs(SplitWords(value), "totals:"));
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
    // Stored signed: a larger value would turn negative (and sort first) in the Profile.
    if (*v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error(line_no_, fmt::format("{}: {} is out of range (at most 2^63 - 1)", key, *v));
    }
    int64_t n = static_cast<int64_t>(*v);
    if (key == "pid") pid_ = n;
    if (key == "thread") cur().thread = n;
    if (key == "part") cur().part = n;
  } else if (key == "cmd") {
    cmd_ = std::string(value);
  } else if (key == "desc") {
    size_t colon = value.find(':');
    std::string type(Trim(value.substr(0, colon)));
    std::string text(colon == std::string_view::npos ? "" : Trim(value.substr(colon + 1)));
    if (type == "Trigger") cur().trigger = text;
    cur().desc.emplace_back(std::move(type), std::move(text));
  } else if (key == "positions") {
    return PositionsLine(value);
  } else if (key == "events") {
    if (!cur().events.empty()) return Error(line_no_, "a second events: line in one part");
    for (auto w : SplitWords(value)) {
      if (std::find(cur().events.begin(), cur().events.end(), w) != cur().events.end()) {
        return Error(line_no_, fmt::format("event '{}' listed twice in events:", w));
      }
      cur().events.emplace_back(w);
    }
    if (cur().events.empty()) return Error(line_no_, "events: lists no events");
  } else if (key == "event") {
    // "event: Name [= inherited expression] [: long name]"; only the long name is kept.
    size_t colon = value.find(':');
    std::string_view head = Trim(value.substr(0, colon));
    std::string_view name = Trim(head.substr(0, head.find('=')));
    if (!name.empty() && colon != std::string_view::npos) {
      cur().event_long_names[std::string(name)] = std::string(Trim(value.substr(colon + 1)));
    }
  } else if (key == "summary") {
    TARE_RETURN_IF_ERROR(NeedEvents("summary:"));
    TARE_ASSIGN_OR_RETURN(cur().summary, Costs(SplitWords(value), "summary:"));
  }
  // Unknown header keys carry no cost; they are ignored so newer valgrinds stay readable.
  return Status::Ok();
}

// Each kind at most once. Subpositions are kept per column (last_pos_, pos_), so the number of
// columns bounds every index into them; "positions: instr line instr line" once made the
// reader read and write past a fixed array of three (issue 9).
Status CallgrindReader::PositionsLine(std::string_view value) {
  std::vector<std::string> positions;
  for (auto w : SplitWords(value)) {
    if (w != "instr" && w != "bb" && w != "line") {
      return Error(line_no_, fmt::format("unknown position kind '{}' (known: instr bb line)", Shorten(w)));
    }
    if (std::find(positions.begin(), positions.end(), w) != positions.end()) {
      return Error(line_no_, fmt::format("position kind '{}' listed twice in positions: '{}'; "
                                         "each kind may appear once (callgrind writes 'line', "
                                         "'instr', or both: 'instr line')",
                                         w, Shorten(value)));
    }
    positions.emplace_back(w);
  }
  if (positions.empty()) return Error(line_no_, "positions: lists nothing");
  cur().positions = std::move(positions);
  last_pos_.assign(cur().positions.size(), 0);
  line_slot_ = instr_slot_ = -1;
  for (size_t i = 0; i < cur().positions.size(); ++i) {
    if (cur().positions[i] == "line") line_slot_ = static_cast<int>(i);
    if (cur().positions[i] == "instr") instr_slot_ = static_cast<int>(i);
  }
  return Status::Ok();
}

Status CallgrindReader::NeedEvents(const char* what) {
  if (cur().events.empty()) {
    return Error(line_no_, fmt::format("{} before the events: line of this part", what));
  }
  return Status::Ok();
}

// ---- parts -------------------------------------------------------------------------------------

Status CallgrindReader::StartNextPart() {
  TARE_RETURN_IF_ERROR(FinishPart());
  ResetPart();
  return Status::Ok();
}

void CallgrindReader::ResetPart() {
  part_.Reset(static_cast<int64_t>(parts_.size()) + 1);
  line_slot_ = 0;
  instr_slot_ = -1;
  last_pos_.assign(1, 0);  // the default positions: "line"
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
}

Status CallgrindReader::FinishPart() {
  if (!part_started_ && !in_body_) return Status::Ok();  // nothing since the last part
  Profile& p = cur();
  if (p.events.empty()) return Error(line_no_, "this part has no events: line");
  p.path = path_;
  p.pid = pid_;
  p.creator = creator_;
  p.cmd = cmd_;
  p.totals.resize(p.events.size(), 0);
  if (!p.declared_totals && creator_.rfind("callgrind", 0) == 0) {
    return Error(line_no_, fmt::format("part {} has no totals: line (callgrind writes one at the "
                                       "end of every part); the file is truncated",
                                       p.part));
  }
  if (p.declared_totals && *p.declared_totals != p.totals) {
    std::string diff;
    for (size_t i = 0; i < p.events.size(); ++i) {
      if ((*p.declared_totals)[i] != p.totals[i]) {
        diff =
            fmt::format("{} = {} but its cost lines add up to {}", p.events[i], (*p.declared_totals)[i], p.totals[i]);
        break;
      }
    }
    return Error(totals_line_, fmt::format("totals: disagrees with the body: {}; the file is "
                                           "corrupt or truncated",
                                           diff));
  }
  if (p.summary) {
    p.summary->resize(p.events.size(), 0);
    p.summary_consistent = true;
    for (size_t i = 0; i < p.events.size(); ++i) {
      if ((*p.summary)[i] < p.totals[i]) p.summary_consistent = false;
    }
  }
  part_.Finish();
  parts_.push_back(std::move(p));
  return Status::Ok();
}

}  // namespace callgrind_internal

StatusOr<std::vector<Profile>> ParseCallgrindProfile(std::string_view text, const std::string& path) {
  callgrind_internal::CallgrindReader reader(text, path);
  return reader.Run();
}

}  // namespace tare::instrument
