#include "doc_commands.h"

#include <cctype>
#include <sstream>

namespace tare::docs {
namespace {

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool IsTareLine(const std::string& s) { return StartsWith(s, "tare ") || StartsWith(s, "build/tare "); }

// `tare ab: ...` is a line of output.
bool IsOutput(const std::string& s) {
  std::istringstream words(s);
  std::string tare, first;
  words >> tare >> first;
  return !first.empty() && first.back() == ':';
}

}  // namespace

std::vector<DocCommand> ExtractCommands(const std::string& file, const std::string& markdown) {
  std::vector<DocCommand> out;
  std::vector<std::string> lines;
  std::istringstream in(markdown);
  for (std::string l; std::getline(in, l);) lines.push_back(l);

  std::string fence;     // "```" or "~~~" while inside a block
  bool session = false;  // the block shows a session ($ prompts): only prompted lines are commands
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = Trim(lines[i]);
    if (fence.empty()) {
      if (StartsWith(t, "```") || StartsWith(t, "~~~")) {
        fence = t.substr(0, 3);
        session = false;
        for (size_t j = i + 1; j < lines.size() && !StartsWith(Trim(lines[j]), fence); ++j) {
          session = session || StartsWith(Trim(lines[j]), "$ ");
        }
      }
      continue;
    }
    if (StartsWith(t, fence)) {
      fence.clear();
      continue;
    }
    std::string text;
    if (session && StartsWith(t, "$ ") && IsTareLine(Trim(t.substr(2)))) {
      text = Trim(t.substr(2));
    } else if (!session && IsTareLine(t)) {
      text = t;
    } else {
      continue;
    }
    const int first_line = static_cast<int>(i) + 1;
    while (!text.empty() && text.back() == '\\' && i + 1 < lines.size()) {
      text.pop_back();
      text += " " + Trim(lines[++i]);
    }
    if (!IsOutput(text)) out.push_back({file, first_line, text});
  }
  return out;
}

std::vector<DocSession> ExtractSessions(const std::string& file, const std::string& markdown) {
  std::vector<DocSession> out;
  std::vector<std::string> lines;
  std::istringstream in(markdown);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string fence;
  DocSession* open = nullptr;  // the session whose output lines follow, inside the current block
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = Trim(lines[i]);
    if (fence.empty()) {
      if (StartsWith(t, "```") || StartsWith(t, "~~~")) fence = t.substr(0, 3);
      continue;
    }
    if (StartsWith(t, fence)) {
      fence.clear();
      open = nullptr;
      continue;
    }
    if (StartsWith(t, "$ ")) {
      DocSession s{file, static_cast<int>(i) + 1, Trim(t.substr(2)), {}};
      while (!s.command.empty() && s.command.back() == '\\' && i + 1 < lines.size()) {
        s.command.pop_back();
        s.command += " " + Trim(lines[++i]);
      }
      out.push_back(std::move(s));
      open = &out.back();
    } else if (open != nullptr) {
      std::string l = lines[i];
      if (!l.empty() && l.back() == '\r') l.pop_back();
      open->shown.push_back(l);
    }
  }
  return out;
}

std::vector<std::string> SplitCommand(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  bool quoted = false;  // the current word has a quoted part (so it is kept even when empty)
  auto finish = [&] {
    if (!in_word) return;
    // Synopsis brackets: [--trials 9], [OPTIONS], [a|b]; only unquoted words are bracketed.
    if (!quoted) {
      while (!word.empty() && word.front() == '[') word.erase(0, 1);
      while (!word.empty() && word.back() == ']') word.pop_back();
    }
    if (!word.empty() || quoted) words.push_back(word);
    word.clear();
    in_word = false;
    quoted = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      finish();
      continue;
    }
    // Where the simple command ends: a comment, a pipe, a list, a redirection. ;, &, < and > end
    // it anywhere, as in a shell; | only as a word of its own or at a word's end, so that a
    // synopsis's alternatives (never|auto|always) stay one word.
    if (!in_word) {
      if (c == '#' || c == '|' || c == ';' || c == '&' || c == '<' || c == '>') break;
      size_t d = i;
      while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
      if (d > i && d < text.size() && text[d] == '>') break;  // 2>/dev/null
    } else if (c == ';' || c == '&' || c == '<' || c == '>' ||
               (c == '|' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t'))) {
      break;
    }
    in_word = true;
    if (c == '\'') {
      quoted = true;
      const size_t end = text.find('\'', i + 1);
      word += text.substr(i + 1, (end == std::string::npos ? text.size() : end) - i - 1);
      i = end == std::string::npos ? text.size() : end;
    } else if (c == '"') {
      quoted = true;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && std::string("\"\\$`").find(text[i + 1]) != std::string::npos) ++i;
        word += text[i];
      }
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
    } else {
      word += c;
    }
  }
  finish();
  return words;
}

}  // namespace tare::docs
