// Assembles one part of a callgrind profile (one Profile) from what the reader
// (callgrind_reader.cc) finds in its body: each cost line's self cost at a (function, file, line,
// instr) position, and each calls= association's count and inclusive cost. Finish() then merges
// callees that were only guessed at, sorts the line costs and computes inclusive costs. Internal
// to the callgrind reader; not part of its contract.
//
// The reader owns the syntax (names, positions, which function is current) and validates every
// index it passes in: a function index comes from FunctionIndex() of the same part.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "instrument/callgrind_profile.h"

namespace tare::instrument::callgrind_internal {

// acc += add, element by element; acc grows to add's size.
void AddInto(CostVector* acc, const CostVector& add);

class PartBuilder {
 public:
  PartBuilder() { Reset(1); }

  // Forgets the part in progress and starts an empty one numbered `part` (its index in the file,
  // until a "part:" line says otherwise), with the format's default positions ("line").
  void Reset(int64_t part);

  // The part being built. The reader fills in its header fields (events, positions, trigger, ...)
  // directly; events must be set before the first FunctionIndex() call.
  Profile& profile() { return part_; }

  // The index of function (object, file, name) in profile().functions, added on first sight.
  // `defined`: named by fn= (a block of its own cost lines), not only as the callee of calls=.
  size_t FunctionIndex(const std::string& object, const std::string& file, const std::string& name, bool defined);

  // One cost line: `costs` (one per event) is self cost of function `fn` at (file, line, instr).
  void AddSelfCost(size_t fn, const std::string& file, uint64_t line, uint64_t instr, const CostVector& costs);

  // One calls= association: `count` calls from `caller` to `callee` costing `inclusive`.
  void AddCall(size_t caller, size_t callee, uint64_t count, const CostVector& inclusive);

  // Completes profile(): functions, their lines and calls, inclusive costs. Call once per part,
  // after the reader has checked the totals; Reset() before building the next part.
  void Finish();

 private:
  struct LineKey {
    size_t fn = 0;
    size_t file = 0;  // index into file_names_
    uint64_t line = 0;
    uint64_t instr = 0;
    bool operator==(const LineKey&) const = default;
  };
  struct LineKeyHash {
    size_t operator()(const LineKey& k) const;
  };

  void AddLineCost(const LineKey& key, const uint64_t* costs);
  size_t FileId(const std::string& file);
  void ResolveCallees();
  void BuildLines();
  void ComputeInclusive();

  Profile part_;
  std::unordered_map<std::string, size_t> fn_index_;
  std::vector<bool> defined_;  // per function: seen in fn=
  std::map<std::pair<size_t, size_t>, size_t> edge_index_;
  // Self cost per (function, file, line, instr): keys in first-seen order, costs in one flat pool
  // of events.size() values per key (cost lines are the hot path: no vector per line).
  std::unordered_map<LineKey, size_t, LineKeyHash> line_index_;
  std::vector<LineKey> line_keys_;
  std::vector<uint64_t> line_pool_;
  // File names are interned once per file, across parts.
  std::unordered_map<std::string, size_t> file_ids_;
  std::vector<std::string> file_names_;
  std::string last_file_name_;
  size_t last_file_id_ = SIZE_MAX;
};

}  // namespace tare::instrument::callgrind_internal
