#include "oracle/trial_output.h"

namespace tare::oracle {

std::string NormalizeLine(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  bool pending_space = false;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

TrialOutput ParseTrialOutput(std::string_view text) {
  TrialOutput out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line = NormalizeLine(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line.rfind("##", 0) == 0) continue;
    if (line[0] == '#') {
      out.header.push_back(std::move(line));
    } else if (!out.items.insert(std::move(line)).second) {
      ++out.duplicate_lines;
    }
  }
  return out;
}

}  // namespace tare::oracle
