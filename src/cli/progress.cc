#include "cli/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/terminal_text.h"

namespace tare::cli {

Progress::Progress(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO)) {}
Progress::~Progress() { Clear(); }

std::function<void(const std::string&)> Progress::Line() {
  return [this](const std::string& line) {
    if (line.empty()) {
      Clear();
    } else {
      Update(line);
    }
  };
}

std::function<void(const std::string&)> Progress::Notice(bool quiet, const std::string& prefix) {
  return [this, quiet, prefix](const std::string& line) {
    if (quiet) return;
    Clear();
    fmt::print(stderr, "tare: {}{}\n", prefix, TerminalText(line));
  };
}

void Progress::Update(const std::string& line) {
  if (!enabled_) return;
  fmt::print(stderr, "\r\033[K{}", SingleLineText(line));  // names in it come from the target
  std::fflush(stderr);
  dirty_ = true;
}

void Progress::Clear() {
  if (!enabled_ || !dirty_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  dirty_ = false;
}

bool Progress::ColorStdout() {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && (no_color == nullptr || *no_color == '\0');
}

bool UseColor(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no = std::getenv("NO_COLOR");
  if (no != nullptr && *no != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string(term) == "dumb") return false;
  return isatty(STDOUT_FILENO) == 1;
}

Status CheckColorMode(const std::string& mode) {
  if (mode == "auto" || mode == "always" || mode == "never") return Status::Ok();
  return Status::InvalidArgument(fmt::format("--color '{}' is not one of auto, always, never", mode));
}

}  // namespace tare::cli
