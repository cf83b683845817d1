// TrialOutput: one trial's report, split into the lines that describe the workload (header) and the
// discrete signals it observed (items). This is the line syntax every oracle mode reads; it is
// documented for users in docs/oracle.md ("Report syntax").
//
//   * Each line is normalized first: a trailing "\r" and leading/trailing spaces and tabs are
//     removed, and every run of spaces and tabs inside the line becomes one space. Alignment
//     padding therefore never makes two trials differ.
//   * Empty lines are ignored.
//   * A line starting with "##" is a note for humans (timings, hostnames, progress). Ignored.
//   * A line starting with "#" is a header line. Header lines say what was run (artifact, workload
//     parameters, tool version) and must be identical, in order, in every trial: if they differ the
//     workload itself changed between processes and no vote means anything.
//   * Every other line is one item. Items form a set per trial: order does not matter and a line
//     repeated within one trial counts once.
//
// Example (a JIT trace report):
//   # trace-report v2 artifact=bench/RefLoop.lua sha256=3f1c...
//   ## took 182 ms
//   Bench.RefLoop.lua:12 JLOOP
//   Bench.RefLoop.lua:32 JFUNCF
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tare::oracle {

struct TrialOutput {
  std::vector<std::string> header;  // normalized header lines, in order, each starting with "#"
  std::set<std::string> items;      // normalized item lines
  int duplicate_lines = 0;          // item lines repeated within this trial (counted once)

  // True when the report had neither header lines nor items (an empty or all-notes report).
  bool empty() const { return header.empty() && items.empty(); }
};

// Normalizes one line as described above ("  a \t b \r" -> "a b").
std::string NormalizeLine(std::string_view line);

// Splits a report into header and items. Never fails: every line is one of the four kinds.
TrialOutput ParseTrialOutput(std::string_view text);

}  // namespace tare::oracle
