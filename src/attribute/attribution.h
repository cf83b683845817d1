// Attribution: where a change in a callgrind event (Ir by default) between two profiles went, per
// function. This is the arithmetic behind `tare attribute` (docs/attribute.md); it reads parsed
// profiles and returns plain values, touching no file and no process.
//
// A function is keyed by (object, BaseFunctionName(name)): the same name in two objects stays two
// rows, and callgrind's recursion levels ("fib'2") fold into their function. The profiled program
// (the object named like the first word of the profile's "cmd:" line, by path or file name) is one
// object on both sides whatever its path: two builds, or a campaign's arm copies, sit at different
// paths. Several parts of a side (several dumps, or several files) are summed.
//
// Per function and side: self cost (its own cost lines, inlined code included), inclusive cost
// (self + the inclusive cost of its calls to functions outside its key), calls (calls into it from
// functions outside its key). Per function, base -> head:
//   self delta       head.self - base.self. The self deltas of all functions sum exactly to the
//                    total delta (a part's totals are the sum of its self cost lines), so this is
//                    the column that is sorted on, shared out and summed to "explained".
//   inclusive delta  head.inclusive - base.inclusive; overlaps between callers and callees, so it
//                    never sums to the total.
//   split            inclusive delta = calls_part + per_call_part, with c = inclusive / calls:
//                      calls_part    = (n1 - n0) * c0      (more or fewer calls at the old price)
//                      per_call_part = n1 * (c1 - c0)      (the new calls at the new price)
//                    exact when both sides have calls; when base has none (new, or newly called)
//                    c0 is taken as c1 (the whole change is calls), when head has none the
//                    per-call part is 0; with no calls on either side there is no split.
//   share            self delta / total delta.
// Inlining is judged on the same rows. A function F "was inlined into C" when
//   - F is called in base and not in head, or head calls it at most far_less_calls (1/2) as often;
//   - C called F in base, and the cost E of C's calls to F went away (E = inclusive cost of the
//     C->F calls in base minus in head);
//   - C's self cost grew by E within inline_tolerance (25%), or by E's self share
//     (E * F.self / F.inclusive in base: F's own callees stay calls, now made from C).
// The caller with the largest E that fits is named. "No longer inlined (out of C)" is the mirror:
// F called in head and not (or far less) in base, C's self cost fell by about the cost of C's
// calls to F in head. Real compilers do not keep to 25% (issue 24): a call's own instructions
// (argument moves, call, ret) can be half of a small function's cost, and a call in a loop can
// make the caller spill registers, so its self cost moves the same way as F's. Failing the
// tolerance, the finding is the caller with the largest E whose implied call overhead (below) is
// at most max_call_overhead events per call — what a call, its argument moves and a few spills
// cost, and far less than a function that was removed rather than inlined leaves behind;
// within_tolerance says which. Every finding says what a call
// cost: call_overhead = (E - what the caller took in) / calls ("+6 Ir per call x 200000 calls").
// The symbol-table check (symbols.h) is added by the caller; it is what confirms a loose finding.
//
// Thread-safety: pure functions over values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "instrument/callgrind_profile.h"

namespace tare::attribute {

// One side's cost of one function, summed over the side's parts and recursion levels.
struct SideCost {
  bool present = false;  // the function has cost lines or calls in this side
  uint64_t self = 0;
  uint64_t inclusive = 0;
  uint64_t calls = 0;
  std::string file;  // fl= of its first appearance ("???" without debug information)
  // inclusive / calls; nullopt without calls.
  std::optional<double> PerCall() const;
};

// What the inlining rule found for a function (see the header comment).
struct InliningFinding {
  enum class Kind { kInlinedInto, kNoLongerInlined };
  Kind kind = Kind::kInlinedInto;
  std::string caller_object;
  std::string caller;            // the caller's BaseFunctionName
  double expected = 0;           // cost the caller should gain (inlined) or lose (no longer inlined)
  double caller_self_delta = 0;  // what its self cost actually did
  uint64_t calls = 0;            // the caller's calls to F that went away (inlined) or appeared
  // What one call cost beyond F's body, in the event's units: the moved cost the caller did not
  // take in (inlined: the call overhead the inlining saved), per call.
  double call_overhead = 0;
  bool within_tolerance = true;  // the caller's self change matched `expected` within the tolerance
  // Symbol-table check of the executables (symbols.h): "" = not checked.
  enum class SymbolCheck { kNotChecked, kConfirmed, kNotConfirmed };
  SymbolCheck symbol_check = SymbolCheck::kNotChecked;
  std::string symbol_note;  // one line: what the symbol tables said, or why not checked
};

// The row of an object's code that has no symbol (callgrind names it by address, "0x...109238"):
// every such address of one object is summed into one row of this name. No inlining is judged on it.
inline constexpr const char* kNoSymbol = "(no symbol)";

// The cache's side of a cost, from callgrind's cache simulation (`--cache-sim=yes`: the events Ir Dr
// Dw I1mr D1mr D1mw ILmr DLmr DLmw, what `tare ab --instrument sim` records): misses per level and
// the estimated cycles of instrument::EstimateCyclesIaiV1 (the model of sim.est_cycles). Fewer
// instructions but more misses is then one row away from Ir (issue 24).
struct CacheCost {
  uint64_t i1_misses = 0;  // I1mr
  uint64_t d1_misses = 0;  // D1mr + D1mw
  uint64_t ll_misses = 0;  // ILmr + DLmr + DLmw
  double est_cycles = 0;   // iai-v1
};

enum class Presence { kBoth, kNew, kGone };
const char* PresenceName(Presence p);  // "both", "new", "gone"

struct FunctionRow {
  std::string object;       // base's path of it when both sides have it
  bool in_program = false;  // in the profiled program itself (matched across paths, above)
  std::string name;         // BaseFunctionName
  Presence presence = Presence::kBoth;
  SideCost base;
  SideCost head;
  double self_delta = 0;
  double inclusive_delta = 0;
  std::optional<double> calls_part;  // see the header comment; both set or both unset
  std::optional<double> per_call_part;
  double share = 0;  // self_delta / total_delta (0 when the total is unchanged)
  std::optional<InliningFinding> inlining;
  // Self cost in the cache events, base and head, when both profiles have them (has_cache).
  CacheCost base_cache, head_cache;

  // Its own cost or its call count moved (an ancestor whose inclusive cost moved only because a
  // callee's did is not a change of its own). Rows are sorted so that every changed row comes first.
  bool Changed() const;
};

struct AttributeOptions {
  std::string event = "Ir";
  // The inlining rule's tolerance: the caller's self change must be within this fraction of the
  // cost expected to move (inlining.h).
  double inline_tolerance = 0.25;
  // "Called far less": head calls at most this fraction of base calls (and the reverse).
  double far_less_calls = 0.5;
  // Past the tolerance, an implied call overhead up to this many events per call still names the
  // caller (a call, its argument moves and a few spills).
  double max_call_overhead = 64;
};

struct AttributionResult {
  std::string event;
  std::vector<std::string> base_events;  // of the first part of each side
  std::vector<std::string> head_events;
  size_t base_parts = 0;
  size_t head_parts = 0;
  uint64_t base_total = 0;
  uint64_t head_total = 0;
  double total_delta = 0;  // head_total - base_total
  // Every part of both sides has the cache simulation's events: rows carry base_cache/head_cache.
  bool has_cache = false;
  CacheCost base_cache_total, head_cache_total;
  std::vector<FunctionRow> rows;   // every function: changed ones first, by |self_delta| descending, then name
  std::vector<std::string> notes;  // one line each, for the reader (filled by the caller too)

  size_t ChangedRows() const;  // rows whose cost moved: the first ChangedRows() rows
  // Sum of the self deltas of the first `n` rows (all rows: exactly total_delta).
  double SelfDeltaOfTop(size_t n) const;
  // Sum of |self delta| of the first `n` rows over that of all rows: how much of the movement the
  // rows show, cancellations included (1 when nothing moved).
  double GrossShareOfTop(size_t n) const;
};

// How attribution names the profiled program's object and a function, shared with flame.h: the
// object named like the first word of "cmd:" ("" when none), and BaseFunctionName with code
// without a symbol folded into kNoSymbol.
std::string ProgramObjectOf(const std::vector<instrument::Profile>& parts);
std::string AttributionName(const std::string& callgrind_name);

// Attributes the change of options.event from `base` to `head`. InvalidArgument when a side has
// no parts, or the event is not in every part of a side (the message lists the events there).
// Inlining findings are filled in (without the symbol check).
StatusOr<AttributionResult> Attribute(const std::vector<instrument::Profile>& base,
                                      const std::vector<instrument::Profile>& head,
                                      const AttributeOptions& options = {});

}  // namespace tare::attribute
