#include "report/escape.h"

#include <cctype>

#include "base/terminal_text.h"

namespace tare::report {
namespace {

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// A code span holds these verbatim; anything else goes through MarkdownText.
bool CodeSpanSafe(std::string_view text) {
  if (text.empty() || text.front() == ' ' || text.back() == ' ') return false;
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7F || c == '`' || c == '|' || c == '<' || c == '>' || c == '&') return false;
  }
  return SingleLineText(text) == text;  // no C1 control, every byte UTF-8
}

// Markdown text; `in_code` when it is written inside <code>, where GitHub makes no mention.
std::string Markdown(std::string_view text, bool in_code);

}  // namespace

std::string MarkdownText(std::string_view text) { return Markdown(text, /*in_code=*/false); }

namespace {

std::string Markdown(std::string_view text, bool in_code) {
  const std::string line = SingleLineText(text);  // controls and newlines made visible first
  std::string out;
  out.reserve(line.size() + 8);
  // At the start of a line Markdown reads "-", "+", "=" and "1." as structure; the ledger puts
  // text after "- " (a list item), where "- x" would open a nested list.
  size_t digits = 0;
  while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
  const bool ordered = digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')');
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    switch (c) {
      case '&':
        out += "&amp;";
        continue;
      case '<':
        out += "&lt;";
        continue;
      case '>':
        out += "&gt;";
        continue;
      case '|':
        out += "&#124;";
        continue;
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '#':
      case '~':
      case '$':
        out += '\\';
        out += c;
        continue;
      case '_': {
        // Inside a word ("ab_knob", "BM_Sort") an underscore cannot open emphasis: left as it is.
        const bool inside_word = i > 0 && i + 1 < line.size() && IsAlnum(line[i - 1]) && IsAlnum(line[i + 1]);
        if (!inside_word) out += '\\';
        out += c;
        continue;
      }
      case '-':
      case '+':
      case '=':
        if (i == 0) out += '\\';
        out += c;
        continue;
      case '@':
        // "@name" notifies that GitHub user when the ledger is posted, and an entity (&#64;) or a
        // backslash does not stop it: GitHub finds mentions in the rendered text. It skips <code>,
        // and an "@" alone in an element cannot start one. After a letter or digit (a@b) it is no
        // mention, but an address GitHub links (mailto:) in the rendered text all the same: the
        // same <code>@</code> (issue 48, item 8).
        if (!in_code) {
          out += "<code>@</code>";
        } else {
          out += c;
        }
        continue;
      case ':':
        // A bare URL ("https://...", any scheme) would be a link in the ledger (issue 48, item 8):
        // its "://" in <code> leaves the scheme and the rest in separate text, which neither of
        // GitHub's autolink passes (at parsing, on the rendered text) links.
        if (!in_code && i > 0 && std::isalpha(static_cast<unsigned char>(line[i - 1])) &&
            line.compare(i, 3, "://") == 0) {
          out += "<code>://</code>";
          i += 2;
          continue;
        }
        out += c;
        continue;
      case 'w':
      case 'W':
        // "www.example.org" is linked without a scheme: its first dot in <code> (as "://" above).
        if (!in_code && (i == 0 || !IsAlnum(line[i - 1])) && i + 4 <= line.size() &&
            (line[i + 1] == 'w' || line[i + 1] == 'W') && (line[i + 2] == 'w' || line[i + 2] == 'W') &&
            line[i + 3] == '.') {
          out += line.substr(i, 3) + "<code>.</code>";
          i += 3;
          continue;
        }
        out += c;
        continue;
      case '.':
      case ')':
        if (ordered && i == digits) out += '\\';
        out += c;
        continue;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string MarkdownCode(std::string_view text) {
  if (CodeSpanSafe(text)) return "`" + std::string(text) + "`";
  return "<code>" + Markdown(text, /*in_code=*/true) + "</code>";
}

std::string CsvField(std::string_view text) {
  // Terminal controls as visible escapes (a CSV is often read on a terminal: issue 27, item 16).
  std::string v = TerminalText(text);
  if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@' || v[0] == '\t')) v = "'" + v;
  std::string out = "\"";
  for (char ch : v) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

}  // namespace tare::report
