// Every command line the documentation shows, taken out of its Markdown so a test can run it
// (tests/docs/docs_commands_test.cc). Shared by nothing else.
//
// What counts as a command line: inside a fenced code block (``` or ~~~), a line that starts with
// `tare ` or `build/tare ` — or, in a block that shows a session, `$ tare ` / `$ build/tare `. A line
// ending in `\` continues on the next. A line whose first word after tare ends in ':'
// (`tare ab: 'x' cohort 1 ...`) is output, not a command.
#pragma once

#include <string>
#include <vector>

namespace tare::docs {

struct DocCommand {
  std::string file;  // as given to ExtractCommands
  int line = 0;      // 1-based, of the command's first line
  std::string text;  // continuations joined, the `$ ` prompt removed
};

std::vector<DocCommand> ExtractCommands(const std::string& file, const std::string& markdown);

// A session a page shows (tests/docs/doc_sessions_test.cc): in a fenced block with `$ ` prompts,
// each prompted line (continuations joined, the prompt removed) and the lines the page shows under
// it, up to the next prompt or the block's end — every prompted line, tare's or not.
struct DocSession {
  std::string file;
  int line = 0;
  std::string command;
  std::vector<std::string> shown;
};

std::vector<DocSession> ExtractSessions(const std::string& file, const std::string& markdown);

// The command's argv as a POSIX shell would split it, up to the end of the first simple command:
// '…' and "…" quoting and backslash escapes are honoured; an unquoted #, |, N> starting a word, or
// ;, &, <, > anywhere (| at a word's end) ends it (a comment, a pipe, a list, a redirection — what
// follows is not tare's). Synopsis
// brackets are dropped: `[--trials 9]` gives `--trials`, `9`. Nothing is expanded ($VAR stays
// as written).
std::vector<std::string> SplitCommand(const std::string& text);

}  // namespace tare::docs
