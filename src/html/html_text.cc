#include "html/html_text.h"

#include "base/terminal_text.h"

namespace tare::html {
namespace {

// `text` is already free of controls (TerminalText / SingleLineText) and valid UTF-8.
std::string EscapeMarkup(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string HtmlText(std::string_view text) { return EscapeMarkup(SingleLineText(text)); }

std::string HtmlAttr(std::string_view text) { return EscapeMarkup(SingleLineText(text)); }

std::string HtmlBlock(std::string_view text) { return EscapeMarkup(TerminalText(text)); }

}  // namespace tare::html
