#include "session/run_commands.h"

#include <optional>
#include <utility>

#include <fmt/format.h>

#include "base/files.h"
#include "base/shell_quote.h"
#include "session/command_line.h"

namespace tare::session {
namespace {

// Whether `word` is a command line of its own: it has a space, and its first word is a program
// (on PATH, or a path to an executable). `make 'make -j4'` is two commands to hyperfine.
bool IsCommandLineOfItsOwn(const std::string& word) {
  if (!LooksLikeCommandString(word)) return false;
  auto words = SplitCommandString(word, "command");
  return words.ok() && !words->empty() && ResolveExecutable(words->front()).ok();
}

std::string QuotedWords(const std::vector<std::string>& words, size_t from) {
  std::string out;
  for (size_t i = from; i < words.size(); ++i) out += (out.empty() ? "" : " ") + tare::ShellQuote(words[i]);
  return out;
}

}  // namespace

Status CheckNotSeveralCommands(const std::vector<std::string>& argv, bool after_dashes) {
  if (after_dashes || argv.size() < 2 || LooksLikeCommandString(argv[0])) return Status::Ok();
  for (size_t i = 1; i < argv.size(); ++i) {
    if (!IsCommandLineOfItsOwn(argv[i])) return Status::Ok();
  }
  std::string several;
  for (const auto& w : argv) several += (several.empty() ? "" : " ") + ("--command " + tare::ShellQuote(w));
  return Status::InvalidArgument(
      fmt::format("`{} {}`: is this one command, or {} (as hyperfine reads it)? Each word after '{}' is a command line "
                  "of its own, and tare reads several commands only when the first word has a space. For {} commands: "
                  "tare run {}. For '{}' with {} as its argument{}: tare run -- {} {}",
                  tare::ShellQuote(argv[0]), QuotedWords(argv, 1), argv.size(), argv[0], argv.size(), several, argv[0],
                  QuotedWords(argv, 1), argv.size() > 2 ? "s" : "", tare::ShellQuote(argv[0]), QuotedWords(argv, 1)));
}

// A command string as the target it runs: split into words (session/command_line.h), or one line
// for /bin/sh -c under --shell; --cwd and --env apply to it as to the target.
StatusOr<CommandString> ToCommand(const TargetArgs& target, const std::string& text, const std::string& flag) {
  CommandString c{text, target};
  if (target.shell) {
    c.args.argv = {text};
  } else {
    TARE_ASSIGN_OR_RETURN(c.args.argv, SplitCommandString(text, flag));
  }
  return c;
}

// The commands of `tare run 'a' 'b'`, `--command`, and the parameter's values substituted in
// them; empty for the classic TARGET [ARGS...] without a parameter.
StatusOr<std::vector<CommandString>> ExpandCommands(const CommandFlags& o) {
  if (!o.scan.empty() && !o.list.empty()) {
    return Status::InvalidArgument("--parameter-scan and --parameter-list: give one parameter");
  }
  if (!o.scan_step.empty() && o.scan.empty()) {
    return Status::InvalidArgument("-D/--parameter-step-size goes with --parameter-scan NAME LO HI");
  }
  std::optional<Parameter> p;
  if (!o.scan.empty()) {
    TARE_ASSIGN_OR_RETURN(p, ScanParameter(o.scan, o.scan_step));
  } else if (!o.list.empty()) {
    TARE_ASSIGN_OR_RETURN(p, ListParameter(o.list));
  }
  std::vector<std::string> texts = o.commands;
  const auto& argv = o.target.argv;
  if (texts.empty()) TARE_RETURN_IF_ERROR(CheckNotSeveralCommands(argv, o.after_dashes));
  std::vector<CommandString> out;
  if (!argv.empty()) {
    if (!texts.empty() || (!o.after_dashes && LooksLikeCommandString(argv[0]))) {
      texts.insert(texts.end(), argv.begin(), argv.end());  // every word one command line
    } else if (p) {
      // TARGET ARGS... taken word by word: {NAME} is replaced in each, nothing is re-split.
      for (const auto& v : p->values) {
        CommandString c{"", o.target};
        bool used = false;
        for (auto& word : c.args.argv) {
          auto one = Substitute(word, p->name, v);
          if (!one.ok()) continue;
          word = *one;
          used = true;
        }
        if (!used) return Substitute(argv[0], p->name, v).status();
        for (const auto& word : c.args.argv)
          c.text += (c.text.empty() ? "" : " ") + (o.target.shell ? word : tare::ShellQuote(word));
        out.push_back(std::move(c));
      }
      return out;
    }
  }
  for (const auto& t : texts) {
    std::vector<std::string> lines = {t};
    if (p) {
      lines.clear();
      for (const auto& v : p->values) {
        TARE_ASSIGN_OR_RETURN(std::string one, Substitute(t, p->name, v));
        lines.push_back(std::move(one));
      }
    }
    for (const auto& line : lines) {
      TARE_ASSIGN_OR_RETURN(CommandString c, ToCommand(o.target, line, "command"));
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace tare::session
