#include "html/html_text.h"

#include "base/terminal_text.h"

namespace tare::html {

std::string HtmlText(std::string_view text) { return EscapeMarkup(SingleLineText(text)); }

std::string HtmlAttr(std::string_view text) { return EscapeMarkup(SingleLineText(text)); }

std::string HtmlBlock(std::string_view text) { return EscapeMarkup(TerminalText(text)); }

std::string HtmlToken(std::string_view text) {
  const std::string escaped = HtmlText(text);
  return text.size() <= kTokenMaxChars ? "<code class=\"token\">" + escaped + "</code>"
                                       : "<code>" + escaped + "</code>";
}

}  // namespace tare::html
