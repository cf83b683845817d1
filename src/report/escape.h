// Untrusted text, escaped for the formats tare writes: the one place per format where a name, a
// note, an error, a stop reason or an argv becomes output. Campaign, cell and benchmark names
// come from the campaign and from the head binary — the pull request under test — so each is
// escaped where it is printed, never trusted to be plain:
//
//   Markdown (the ledger)  MarkdownText for prose and table cells, MarkdownCode for code
//   terminal               TerminalText / SingleLineText (base/terminal_text.h), used by the
//                          console table here and by cli for everything else it prints
//   CSV                    CsvField
//   JSON                   nlohmann's serializer escapes (base/json_text.h)
//
// A name that says "@someone" would notify that GitHub user each time the ledger is posted: in
// prose the "@" is written as <code>@</code> (an "@" alone in an element starts no mention; code is
// never searched for them), in code it stays. Bare URLs would be links: in prose the "://" of any
// scheme, the first "." of "www.", and the "@" of an address are written in <code> the same way
// (GitHub links neither at parsing nor on the rendered text across elements); in code they stay. Bidirectional controls
// (U+202E...) are shown as \u202e, like every control (base/terminal_text.h). In Markdown no raw HTML survives (`<`,
// `>`, `&` become entities), a `|` cannot split a table cell, a newline cannot start a heading or end a table row
// (controls are shown as visible escapes, \n, \x1b), and Markdown's own punctuation is backslash-escaped so a name
// cannot open emphasis, a link or a code span. The rendered text reads as the original string. Pure.
#pragma once

#include <string>
#include <string_view>

namespace tare::report {

// Prose and table cells: "a|b <img>" -> "a&#124;b &lt;img&gt;". One line, always.
std::string MarkdownText(std::string_view text);

// Inline code: "`--work 8`". Text a code span cannot hold verbatim (a backtick, `|`, `<`, `>`,
// `&`, a control, or nothing at all) becomes <code>MarkdownText(text)</code> instead, which renders
// the same monospace text: inside a code span entities and backslash escapes are not decoded,
// and a backtick would end the span early.
std::string MarkdownCode(std::string_view text);

// A CSV field (RFC 4180): always quoted, quotes doubled; a leading = + - @ or tab gets a ' so that
// a spreadsheet does not read the field as a formula (a leading CR is escaped already); controls
// other than newline and tab, C1 controls and bytes that are not UTF-8 are written as visible
// escapes (base/terminal_text.h TerminalText), so printing the CSV cannot drive a terminal.
std::string CsvField(std::string_view text);

}  // namespace tare::report
