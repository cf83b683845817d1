// Callgrind profiles: a reader for the callgrind profile format, version 1, as valgrind 3.19 writes
// it (valgrind's "Callgrind Format Specification", docs/sim.md "Reading a profile").
//
// One file holds one or more *parts*; each part is one dump: a header (positions, events, desc:
// Trigger, summary) and a body of cost lines grouped under position specifications (ob= fl= fi=
// fe= fn=), with calls= associations carrying the inclusive cost of a call. Names may be
// compressed ("fn=(12) main" defines id 12, a later "fn=(12)" refers to it); subpositions may be
// relative to the previous cost line ("+3", "-2", "*"). Parse() turns each part into a Profile:
// per-function self and inclusive costs and caller->callee edges, plus the part's totals, which
// are computed from the cost lines and checked against the "totals:" line valgrind writes.
//
// How valgrind 3.19 lays out its output (checked against real runs, see the tests):
//  - each dump is its own file: DUMP_STATS / DUMP_STATS_AT and --dump-before/--dump-after write
//    "<out-file>.<N>" (N counts dumps from 1), the dump at exit writes "<out-file>" itself; with
//    --combine-dumps=yes all dumps are appended to "<out-file>" as consecutive parts;
//  - "desc: Trigger: ..." names why the dump happened: "Client Request: <DUMP_STATS_AT string>",
//    "--dump-before=<function>", "--dump-after=<function>" or "Program termination";
//  - "summary:" is unreliable: it is 0 when a dump happens with instrumentation off and wraps
//    around (2^64 - x) after CALLGRIND_ZERO_STATS, so it is recorded but never trusted; "totals:"
//    is written at the end of every part and must equal the sum of its cost lines.
//
// Errors: malformed input is a DataLoss Status "<path>:<line>: <what is wrong>". A profile is input
// the benchmark controls (it can write into its profile directory), so every index and number
// taken from the text is checked; no input makes the reader throw or touch memory out of bounds.
// Thread-safety: the functions are pure; a Profile is a plain value.
//
// Implementation (library tare_callgrind, which needs only tare_base; private headers in
// internal/): callgrind_text (words and numbers of the format), callgrind_reader (the line loop,
// header lines, parts) with callgrind_body.cc (position specifications, name compression, calls=,
// cost lines and their subpositions), callgrind_part_builder (one part's functions, lines, call
// edges and inclusive costs), callgrind_profile.cc (the Profile queries, reading a file).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace tare::instrument {

// One value per event, in Profile::events order.
using CostVector = std::vector<uint64_t>;

// Self cost at one source position of a function. `file` is the file of the code (an inlined
// function's header when fi=/fe= said so); `line` is 0 without "line" positions, `instr` 0
// without "instr" positions.
struct LineCost {
  std::string file;
  uint64_t line = 0;
  uint64_t instr = 0;
  CostVector self;
};

// A function as callgrind names it: object (ob=), the file it was attributed to (fl=) and its
// demangled name. Callgrind appends "'N" to the name of the N-th level of direct recursion
// ("fib'2"); BaseFunctionName() removes it.
struct FunctionCost {
  std::string object;  // "" when the profile names no object
  std::string file;    // "???" when the binary has no debug information for it
  std::string name;
  CostVector self;  // exclusive cost: the function's cost lines, inlined code included
  // Self plus the inclusive cost of its calls to other functions. Exact for direct recursion
  // (callgrind splits it into "f", "f'2", ...; calls from a function to itself are not added);
  // functions in a cycle of mutual recursion are over-counted, as in every call-graph profile.
  CostVector inclusive;
  uint64_t calls = 0;           // times it was called within this part (sum of calls= into it)
  std::vector<LineCost> lines;  // sorted by file, line, instr
};

// Calls from one function to another within the part, summed over call sites.
struct CallEdge {
  size_t caller = 0;  // index into Profile::functions
  size_t callee = 0;
  uint64_t calls = 0;
  CostVector inclusive;  // cost spent in the callee (and below) on behalf of these calls
};

struct Profile {
  std::string path;     // the file it came from
  int64_t part = 0;     // "part:" (valgrind numbers dumps from 1); its index in the file if absent
  int64_t pid = 0;      // "pid:", 0 if absent
  int64_t thread = 0;   // "thread:" (--separate-threads=yes), 0 if absent
  std::string creator;  // "callgrind-3.19.0"
  std::string cmd;      // the profiled command line
  std::string trigger;  // "desc: Trigger:" value, e.g. "Client Request: demo::compute"
  std::vector<std::pair<std::string, std::string>> desc;  // every "desc: type: value", in order
  std::vector<std::string> positions;                     // "line" (default), or "instr", "bb", "line" in that order
  std::vector<std::string> events;                        // "Ir", "Dr", ... as in "events:"
  std::map<std::string, std::string> event_long_names;    // "sysTime" -> "sysTime (elapsed ns)"

  CostVector totals;                          // sum of every self cost line in the part
  std::optional<CostVector> declared_totals;  // "totals:", checked equal to `totals`
  std::optional<CostVector> summary;          // "summary:", recorded only (see above)
  // summary present and >= totals for every event, as the format says it should be.
  bool summary_consistent = false;

  std::vector<FunctionCost> functions;  // in order of first appearance
  std::vector<CallEdge> calls;          // in order of first appearance

  // Index of an event in `events`, or nullopt.
  std::optional<size_t> EventIndex(std::string_view event) const;
  // totals[event]; 0 if the part has no such event.
  uint64_t Total(std::string_view event) const;
  // The function with exactly this name (first if several objects define it), or null.
  const FunctionCost* FindFunction(std::string_view name) const;
  // Self and inclusive cost summed over every function whose BaseFunctionName is `base`
  // (e.g. "fib" and "fib'2"); inclusive counts only entries from other functions.
  CostVector SelfOf(std::string_view base) const;
  CostVector InclusiveOf(std::string_view base) const;
};

// "fib'2" -> "fib"; names without a recursion suffix are returned unchanged.
std::string BaseFunctionName(std::string_view name);

// Parses every part of one profile file's text. `path` is used in error messages and recorded.
StatusOr<std::vector<Profile>> ParseCallgrindProfile(std::string_view text, const std::string& path);

// Reads and parses a file.
StatusOr<std::vector<Profile>> ReadCallgrindProfile(const std::string& path);

}  // namespace tare::instrument
