// Live progress on stderr for long work. On a terminal: one line rewritten in place. Elsewhere
// (CI logs, pipes): silent, so logs stay readable; warnings and errors are printed separately.
#pragma once

#include <functional>
#include <string>

#include "base/status.h"

namespace tare::cli {

class Progress {
 public:
  explicit Progress(bool quiet);
  ~Progress();
  // "[12/40] gbench_basic::BM_Sort/1024 sample 3/10"
  void Update(const std::string& line);
  // Clears the progress line (before printing anything else to stderr or stdout).
  void Clear();
  // Whether colour may be used on stdout (a TTY and NO_COLOR unset).
  static bool ColorStdout();

  // The callbacks long work takes (session::PlainRun, campaign::RunnerOptions, bundle::Replay):
  // `Line` updates the progress line ("" clears it); `Notice` clears it and prints
  // "tare: <prefix><line>" on stderr, made safe for a terminal, unless `quiet`.
  std::function<void(const std::string&)> Line();
  std::function<void(const std::string&)> Notice(bool quiet, const std::string& prefix = "");

 private:
  bool enabled_;
  bool dirty_ = false;
};

// --color: "always", "never", or "auto" (colour when stdout is a terminal, NO_COLOR is unset or
// empty and TERM is not "dumb"; https://no-color.org). Shared by every command that colours.
bool UseColor(const std::string& mode);
// InvalidArgument unless `mode` is one of auto, always, never.
Status CheckColorMode(const std::string& mode);
inline constexpr char kColorHelp[] = "auto (default: on a terminal, unless NO_COLOR is set) | always | never";

}  // namespace tare::cli
