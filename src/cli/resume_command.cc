#include "cli/resume_command.h"

#include <algorithm>
#include <string_view>

namespace tare::cli {

std::string ShellQuote(const std::string& arg) {
  // zsh expands a word that starts with '=' (=cmd is the path of cmd): quoted too.
  const bool plain = !arg.empty() && arg.front() != '=' && std::all_of(arg.begin(), arg.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  if (plain) return arg;
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
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

}  // namespace tare::cli
