#include "cmdline/argv.h"

#include <algorithm>

#include "base/redact.h"
#include "base/shell_quote.h"
#include "session/command_line.h"

namespace tare::cmdline {

namespace {
std::vector<std::string>& InvocationStorage() {
  static std::vector<std::string> argv;
  return argv;
}
}  // namespace

void SetInvocation(int argc, char** argv) { InvocationStorage().assign(argv, argv + argc); }
const std::vector<std::string>& Invocation() { return InvocationStorage(); }

std::vector<std::string> RecordedInvocation() {
  std::vector<std::string> argv;
  for (const auto& a : InvocationStorage()) argv.push_back(RedactSecrets(a));
  return argv;
}

// How many of the next words are the values of option word `a`: "--samples=3" carries its (first)
// value; the rest of a multi-value option follow it.
static int ValuesAfter(const std::string& a, const std::map<std::string, int>& value_options) {
  auto it = value_options.find(a.substr(0, a.find('=')));
  return it == value_options.end() ? 0 : it->second - (a.find('=') == std::string::npos ? 0 : 1);
}

SplitArgs SplitAtTarget(const std::vector<std::string>& argv, size_t first,
                        const std::map<std::string, int>& value_options) {
  SplitArgs out;
  out.tare.assign(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(std::min(first, argv.size())));
  size_t i = first;
  while (i < argv.size()) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      out.after_dashes = true;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the target
    out.tare.push_back(a);
    for (int values = ValuesAfter(a, value_options); values > 0 && i + 1 < argv.size(); --values) {
      out.tare.push_back(argv[++i]);
    }
    ++i;
  }
  out.target.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  if (out.after_dashes || out.target.empty() || !session::LooksLikeCommandString(out.target[0])) return out;
  // Command lines ('sleep 0.1' 'sleep 0.2'): each word is a whole command, so a word that starts
  // with '-' cannot be one's argument; it is tare's, wherever it stands (hyperfine's habit of
  // options last). A later "--" ends that: what follows are command lines.
  std::vector<std::string> commands;
  for (size_t j = 0; j < out.target.size(); ++j) {
    const std::string& a = out.target[j];
    if (a == "--") {
      commands.insert(commands.end(), out.target.begin() + static_cast<std::ptrdiff_t>(j) + 1, out.target.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      commands.push_back(a);
      continue;
    }
    out.tare.push_back(a);
    for (int values = ValuesAfter(a, value_options); values > 0 && j + 1 < out.target.size(); --values) {
      out.tare.push_back(out.target[++j]);
    }
  }
  out.target = std::move(commands);
  return out;
}

std::string AmbiguousTargetArgument(const SplitArgs& split, const std::vector<std::string>& options) {
  if (split.after_dashes) return "";
  for (size_t i = 1; i < split.target.size(); ++i) {
    const std::string& a = split.target[i];
    const std::string name = a.substr(0, a.find('='));
    if (name.size() >= 2 && name[0] == '-' && std::find(options.begin(), options.end(), name) != options.end()) {
      return a;
    }
  }
  return "";
}

std::string ResumeCommand(const std::vector<std::string>& argv) {
  std::vector<std::string> args = argv;
  const auto dashes = std::find(args.begin(), args.end(), std::string("--"));
  const bool resuming = std::find(args.begin(), dashes, std::string("--resume")) != dashes;
  if (!resuming) {
    auto ab = std::find(args.begin(), dashes, std::string("ab"));
    args.insert(ab == dashes ? dashes : ab + 1, "--resume");
  }
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + ShellQuote(a);
  return out;
}

}  // namespace tare::cmdline
