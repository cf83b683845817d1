// LineDiff: a readable line diff of two texts for exact-match oracles (counters mode), in the
// shape of `diff -u` without hunk headers: removed lines "-", added lines "+", a little context
// " ", each with its line number on the left side ("old") or right side ("new").
//
// Method: common leading and trailing lines are stripped, then the middle is aligned with a
// longest-common-subsequence table when it is small enough (<= 4M cells); larger middles are shown
// as replaced wholesale. Output is capped; the raw files are in the run directory.
#pragma once

#include <string>
#include <string_view>

namespace tare::oracle {

struct LineDiffOptions {
  int context_lines = 2;
  int max_lines = 40;  // diff lines shown before "... N more"
  std::string old_label = "golden";
  std::string new_label = "run";
  std::string indent = "  ";
};

// "" when the texts are equal. When they differ only in the final newline or in "\r", says so.
std::string LineDiff(std::string_view old_text, std::string_view new_text, const LineDiffOptions& options = {});

}  // namespace tare::oracle
