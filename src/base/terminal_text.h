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
//   bidirectional formatting controls          -> \u202e
//     (U+202A..U+202E embeddings and overrides, U+2066..U+2069 isolates, U+200E/U+200F marks,
//     U+061C): they reorder what follows, so "a\u202Etxt.exe" would display as "aexe.txt"
//     (Trojan Source, CVE-2021-42574) in a terminal, a Markdown ledger or an HTML report alike
//   zero-width characters                      -> \u200b
//     (U+200B..U+200D, U+2060..U+2064, U+FEFF; issue 48, item 8): two names that print alike,
//     "BM_Sort" and "BM_\u200bSort", are told apart
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

// For HTML or XML (text or attribute value), of text already made safe by TerminalText or
// SingleLineText: & < > " ' as entities. html/html_text.h and attribute/flame.h (SVG) use it.
std::string EscapeMarkup(std::string_view safe_text);

// The code point of the bidirectional formatting control or zero-width character whose UTF-8
// starts at text[i] (those above, U+200B-U+200D, U+2060-U+2064, U+FEFF), or 0.
char32_t BidiControlAt(std::string_view text, size_t i);

// The last `max_lines` lines of a program's output tail (of its last `max_bytes` bytes), trailing
// blank lines dropped: what a failing benchmark said, to show once. Unescaped: escape each line for
// its output format.
std::vector<std::string> LastLines(std::string_view tail, size_t max_lines, size_t max_bytes = 600);

}  // namespace tare
