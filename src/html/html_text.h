// Untrusted text made safe for HTML: the one place where a benchmark name, an argv element, a note,
// a path, a campaign, branch or tag name becomes part of an HTML report (docs/report.md).
//
// Those strings come from the programs under test (the pull request being judged) and from the
// user, so none may open an element, close the one it sits in, or end an attribute value. Every
// such string goes through exactly one of these, at the point it is written:
//
//   HtmlText   element content (<td>, <p>, <title>, SVG <text> and <title>): one line
//   HtmlAttr   an attribute value written between double quotes (class names and ids are tare's
//              own words and never carry outside text)
//   HtmlBlock  preformatted content (<pre>): keeps newlines and tabs
//
// & < > " ' become entities (&amp; &lt; &gt; &quot; &#39;) in all three, so the result is safe in
// content and in quoted attributes alike. Control bytes are first made visible the way the terminal
// shows them (base/terminal_text.h: ESC as \x1b, a newline in a name as \n, C1 controls as \u009b,
// bytes that are not UTF-8 as \xff), so the page is valid UTF-8, shows what the bytes were, and a
// name cannot add a line to a one-line cell. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace tare::html {

// "<script>alert(1)</script>" -> "&lt;script&gt;alert(1)&lt;/script&gt;". One line, always.
std::string HtmlText(std::string_view text);

// For attribute values in double quotes: the same escaping as HtmlText.
std::string HtmlAttr(std::string_view text);

// For <pre>: newlines and tabs kept, every other control made visible, markup escaped.
std::string HtmlBlock(std::string_view text);

// A short name read as one word — a metric (`gb.real_time_ns`), a digest prefix — in <code> that
// never breaks inside it (class "token"; issue 44: `gb.real_time_n|s` wrapped mid-name at 1280
// px). Text over kTokenMaxChars (a hostile name) stays breakable <code>, so it cannot widen a page.
inline constexpr size_t kTokenMaxChars = 40;
std::string HtmlToken(std::string_view text);

}  // namespace tare::html
