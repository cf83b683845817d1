// Command lines given as one string, as hyperfine takes them: `tare run 'sleep 0.1' 'sleep 0.2'`,
// `--command`, `--prepare`, `--setup`, `--conclude`, and `{NAME}` parameters in them.
//
// tare never runs a shell unless asked (--shell): a benchmark should time the program, not
// /bin/sh's start-up, and a string from a script should not become shell code by accident. So a
// command string is split into words here, the way a shell would split it but with nothing else a
// shell does: single and double quotes group, a backslash escapes the next character, and that is
// all. Characters that only mean something to a shell (| & ; < > ( ) $ ` * ? and ~ at the start of
// a word), unquoted, are refused with an error that says to add --shell: silently passing `|` as
// an argument would measure something else than the user wrote.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace tare::session {

// The words of `command`. InvalidArgument, naming `flag` and the fix, for an empty command, an
// unterminated quote or unquoted shell syntax.
StatusOr<std::vector<std::string>> SplitCommandString(const std::string& command, const std::string& flag);

// Whether `tare run WORD...` names command strings rather than TARGET [ARGS...]: the first word
// has a space (or tab) in it, which no program name in practice has.
bool LooksLikeCommandString(const std::string& first_word);

// A --parameter-scan / --parameter-list parameter: every value gives one command, `{name}`
// replaced by it.
struct Parameter {
  std::string name;
  std::vector<std::string> values;
};

// --parameter-scan NAME LO HI [-D STEP]: LO, LO+STEP, ... up to HI (inclusive, with a tolerance of
// a millionth of a step for decimal steps), printed as integers when LO and STEP are whole, else
// with the fewest digits that tell them apart (%g). At most 1000 values.
StatusOr<Parameter> ScanParameter(const std::vector<std::string>& name_lo_hi, const std::string& step);
// --parameter-list NAME A,B,C
StatusOr<Parameter> ListParameter(const std::vector<std::string>& name_values);

// `command` with every `{name}` replaced by `value`; InvalidArgument when it has no `{name}` (every
// value would measure the same command).
StatusOr<std::string> Substitute(const std::string& command, const std::string& name, const std::string& value);

}  // namespace tare::session
