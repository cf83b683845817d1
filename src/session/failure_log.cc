#include "session/failure_log.h"

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
  std::string text = tail.size() > 600 ? tail.substr(tail.size() - 600) : tail;
  std::vector<std::string> lines;
  for (size_t i = 0; i <= text.size();) {
    size_t nl = text.find('\n', i);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(i, nl - i));
    i = nl + 1;
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos) lines.pop_back();
  if (lines.empty()) return "";
  std::string out = "; its stderr ends:";
  for (size_t i = lines.size() > 5 ? lines.size() - 5 : 0; i < lines.size(); ++i) out += "\n  " + lines[i];
  return out;
}

}  // namespace tare::session
