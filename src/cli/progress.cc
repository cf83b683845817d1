#include "cli/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/terminal_text.h"

namespace tare::cli {

Progress::Progress(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO)) {}
Progress::~Progress() { Clear(); }

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

}  // namespace tare::cli
