// The line-level callgrind reader behind ParseCallgrindProfile (callgrind_profile.h). Internal to
// the callgrind reader; not part of its contract.
//
// It walks the text line by line and keeps the state the format carries from one line to the
// next: the current object, file and function, the compressed names, the previous cost line's
// subpositions, a pending calls=. Each cost goes to a PartBuilder (callgrind_part_builder.h).
//   callgrind_reader.cc  the line loop, header lines (positions:, events:, ...), parts
//   callgrind_body.cc    body lines: position specifications, name compression, calls=/jump=,
//                        cost lines and their subpositions
//
// A profile is input the benchmark controls. Every index into the reader's per-column state
// (pos_, last_pos_) is bounded by the "positions:" line, which allows each kind once; every
// number goes through ParseNumber, which never throws or wraps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "instrument/internal/callgrind_part_builder.h"
#include "instrument/callgrind_profile.h"

namespace tare::instrument::callgrind_internal {

class CallgrindReader {
 public:
  // `path` is used in error messages and recorded in each Profile; `text` must outlive Run().
  CallgrindReader(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  // Every part of the text, or DataLoss "<path>:<line>: <what is wrong>". Call once.
  StatusOr<std::vector<Profile>> Run();

 private:
  // Position specifications share three name-compression tables: objects (ob=, cob=), files (fl=,
  // fi=, fe=, cfi=, cfl=, jfi=) and functions (fn=, cfn=, jfn=, frfn=). The format's own example
  // defines an id with "cfi=(2) file2.c" and uses it with "fl=(2)", and valgrind numbers each
  // kind once per process, so the tables are per kind, not per keyword.
  enum NameKind { kObjectName = 0, kFileName = 1, kFunctionName = 2 };

  struct PendingCall {
    bool active = false;
    bool is_call = false;  // false: jump=/jcnd=, whose second line carries no cost
    size_t line_no = 0;
    uint64_t count = 0;
    size_t callee = 0;
  };

  Profile& cur() { return part_.profile(); }
  Status Error(size_t line_no, const std::string& what) const;
  Status Line(std::string_view raw);
  Status NeedEvents(const char* what);

  // callgrind_reader.cc: header lines and parts.
  Status HeaderLine(std::string_view key, std::string_view value);
  Status PositionsLine(std::string_view value);
  Status StartNextPart();
  void ResetPart();
  Status FinishPart();

  // callgrind_body.cc: body lines.
  Status SpecLine(std::string_view key, std::string_view value);
  StatusOr<std::string> Name(NameKind kind, std::string_view value);
  Status AssociationStart(std::string_view key, std::string_view value);
  Status AssociationLine(std::string_view line);
  StatusOr<uint64_t> SubPosition(std::string_view word, uint64_t last) const;
  StatusOr<CostVector> Costs(const std::vector<std::string_view>& words, const char* what);
  Status CostsInto(const std::string_view* begin, const std::string_view* end, const char* what, CostVector* costs);
  Status ParseCostLine(std::string_view line);
  Status CostLine(std::string_view line);

  std::string_view text_;
  std::string path_;
  size_t line_no_ = 0;

  // Per file.
  std::string creator_;
  std::string cmd_;
  int64_t pid_ = 0;
  std::unordered_map<uint64_t, std::string> names_[3];  // by NameKind
  std::vector<Profile> parts_;

  // Per part.
  PartBuilder part_;
  bool in_body_ = false;
  bool part_started_ = false;
  size_t totals_line_ = 0;
  std::string ob_, fl_;
  std::string cur_file_;   // file of the next cost line (fl=, changed by fi=/fe=)
  std::string cost_file_;  // file of the last cost line: the default file of a callee
  std::optional<size_t> fn_;
  std::optional<std::string> cob_, cfi_, cfn_;
  std::vector<std::string_view> words_;  // reused: cost lines are the hot path
  std::vector<uint64_t> pos_;            // this cost line's subpositions, one per positions: kind
  CostVector costs_;
  int line_slot_ = 0;    // index of "line" in positions, -1 if absent
  int instr_slot_ = -1;  // index of "instr" in positions, -1 if absent
  // The previous cost line's subpositions, the base of relative ones ("+3", "-1", "*"); always
  // exactly positions.size() long (one for the default "line").
  std::vector<uint64_t> last_pos_ = std::vector<uint64_t>(1, 0);
  PendingCall pending_;
};

// Whether a body line starting with `c` is a cost line (a subposition comes first).
inline bool StartsCostLine(char c) { return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*'; }

}  // namespace tare::instrument::callgrind_internal
