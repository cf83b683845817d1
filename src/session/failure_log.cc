#include "session/failure_log.h"

#include "base/terminal_text.h"

namespace tare::session {

bool FailureLog::First(const std::string& key, const std::string& error) {
  auto [it, inserted] = index_.emplace(std::make_pair(key, error), seen_.size());
  if (inserted) seen_.push_back({key, error, 0});
  ++seen_[it->second].times;
  return inserted;
}

std::vector<FailureLog::Repeat> FailureLog::Repeated() const {
  std::vector<Repeat> out;
  for (const auto& r : seen_) {
    if (r.times > 1) out.push_back(r);
  }
  return out;
}

std::string StderrTail(const std::string& tail) {
  const std::vector<std::string> lines = LastLines(tail, 5);
  if (lines.empty()) return "";
  std::string out = "; its stderr ends:";
  for (const auto& line : lines) out += "\n  " + line;
  return out;
}

}  // namespace tare::session
