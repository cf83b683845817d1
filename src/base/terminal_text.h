// Text that came from outside tare — benchmark names, a child's output, golden, quarantine and
// report lines, argv, error messages that quote them — made safe to print on a terminal.
//
// A terminal obeys the control bytes in what it prints: `ESC ] 0 ; title BEL` retitles the
// window, `ESC [ 2 J` clears it, a carriage return overwrites the line already shown, and C1
// controls (U+0080..U+009F, e.g. U+009B, CSI) do the same on terminals that honour them. Every
// such byte is written as a visible escape instead, in the style of a C string literal, so what
// the user sees is what the bytes were:
//   C0 controls (except those kept), DEL       -> \x1b, \x7f, \r ...
//   C1 controls, encoded in UTF-8 (C2 80..9F)  -> \u009b
//   bytes that are not UTF-8                   -> \xff
// Printable text, valid UTF-8 included, is left as it is; so is the backslash (the escapes are
// for reading, not for parsing back). Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tare {

// For terminal output: keeps newline and tab, escapes every other control.
std::string TerminalText(std::string_view text);

// For one line (a table cell, a name in a sentence): newline and tab are escaped too.
std::string SingleLineText(std::string_view text);

// The last `max_lines` lines of a program's output tail (of its last `max_bytes` bytes), trailing
// blank lines dropped: what a failing benchmark said, to show once. Unescaped: escape each line for
// its output format.
std::vector<std::string> LastLines(std::string_view tail, size_t max_lines, size_t max_bytes = 600);

}  // namespace tare
