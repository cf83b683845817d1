// The commands `tare run` measures when given command strings, as hyperfine takes them:
// `tare run 'sleep 0.1' 'sleep 0.2'`, `--command`, and a --parameter-scan / --parameter-list
// parameter substituted in them (session/command_line.h splits and substitutes).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "session/plain_run.h"
#include "session/target_setup.h"

namespace tare::session {

struct CommandFlags {
  TargetArgs target;                  // TARGET [ARGS...], or command strings as words; --cwd, --env, the shell
  std::vector<std::string> commands;  // --command, repeatable
  std::vector<std::string> scan;      // --parameter-scan NAME LO HI
  std::string scan_step;              // -D
  std::vector<std::string> list;      // --parameter-list NAME A,B,C
  bool after_dashes = false;          // the target followed "--": taken verbatim, never a command string
};

// `text` as the target it runs: split into words, or one line for the shell under `target.shell`;
// `target`'s --cwd and --env apply to it. `flag` names the option in errors ("--prepare").
StatusOr<CommandString> ToCommand(const TargetArgs& target, const std::string& text, const std::string& flag);

// hyperfine reads `hyperfine make 'make -j4'` as two commands; tare reads TARGET [ARGS...] unless
// the first word has a space (command_line.h). So when the first word has none and every word after
// it is a command line of its own (it has a space, and its first word is a program on PATH or a
// path to one), InvalidArgument naming both ways to write it (`--command` for each, or `--`
// before the command for one command with those arguments); never measured in silence as one.
// Ok after `--`, and for anything else.
Status CheckNotSeveralCommands(const std::vector<std::string>& argv, bool after_dashes);

// Every command, in the order given, with the parameter's values substituted (one command per
// value); empty for the classic TARGET [ARGS...] without a parameter (CheckNotSeveralCommands
// first). With a parameter, TARGET ARGS... are taken word by word: {NAME} is replaced in each,
// nothing is re-split.
StatusOr<std::vector<CommandString>> ExpandCommands(const CommandFlags& flags);

}  // namespace tare::session
