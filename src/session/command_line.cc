#include "session/command_line.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace tare::session {
namespace {

constexpr char kShellOnly[] = "|&;<>()$`*?";

StatusOr<double> ParseNumber(const std::string& text, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) {
    return Status::InvalidArgument(fmt::format("--parameter-scan: {} '{}' is not a number", what, text));
  }
  return v;
}

bool IsWhole(double v) { return std::floor(v) == v && std::fabs(v) < 1e15; }

}  // namespace

bool LooksLikeCommandString(const std::string& first_word) {
  return first_word.find_first_of(" \t") != std::string::npos;
}

StatusOr<std::vector<std::string>> SplitCommandString(const std::string& command, const std::string& flag) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote == '\'') {
      if (c == '\'') {
        quote = 0;
      } else {
        word += c;
      }
      continue;
    }
    if (quote == '"') {
      if (c == '"') {
        quote = 0;
      } else if (c == '\\' && i + 1 < command.size() &&
                 std::string("\"\\$`").find(command[i + 1]) != std::string::npos) {
        word += command[++i];
      } else {
        word += c;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '\\') {
      if (i + 1 < command.size()) word += command[++i];
    } else if (std::string(kShellOnly).find(c) != std::string::npos || (c == '~' && word.empty())) {
      return Status::InvalidArgument(
          fmt::format("{}'{}' has '{}', which only a shell understands; tare runs commands without a shell unless "
                      "asked: add --shell to run each command through /bin/sh -c, or quote the character",
                      flag.empty() ? "" : flag + ": ", command, c));
    } else {
      word += c;
    }
  }
  if (quote != 0) {
    return Status::InvalidArgument(fmt::format("{}'{}' has an unterminated {} quote", flag.empty() ? "" : flag + ": ",
                                               command, quote == '\'' ? "single" : "double"));
  }
  if (in_word) words.push_back(word);
  if (words.empty()) {
    return Status::InvalidArgument(
        fmt::format("{}the command is empty; write e.g. 'sleep 0.1'", flag.empty() ? "" : flag + ": "));
  }
  return words;
}

StatusOr<Parameter> ScanParameter(const std::vector<std::string>& name_lo_hi, const std::string& step_text) {
  if (name_lo_hi.size() != 3) {
    return Status::InvalidArgument("--parameter-scan takes NAME LO HI, e.g. --parameter-scan n 1 5");
  }
  Parameter p{name_lo_hi[0], {}};
  TARE_ASSIGN_OR_RETURN(double lo, ParseNumber(name_lo_hi[1], "LO"));
  TARE_ASSIGN_OR_RETURN(double hi, ParseNumber(name_lo_hi[2], "HI"));
  double step = 1;
  if (!step_text.empty()) {
    TARE_ASSIGN_OR_RETURN(step, ParseNumber(step_text, "-D STEP"));
  }
  if (step <= 0)
    return Status::InvalidArgument(fmt::format("--parameter-step-size (-D) {} must be above 0", step_text));
  if (hi < lo) {
    return Status::InvalidArgument(
        fmt::format("--parameter-scan {}: HI {} is below LO {}", p.name, name_lo_hi[2], name_lo_hi[1]));
  }
  const double count = std::floor((hi - lo) / step + 1e-6) + 1;
  if (count > 1000) {
    return Status::InvalidArgument(
        fmt::format("--parameter-scan {} {} {} gives {:.0f} values; at most 1000 (raise -D STEP)", p.name,
                    name_lo_hi[1], name_lo_hi[2], count));
  }
  const bool whole = IsWhole(lo) && IsWhole(step);
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
    const double v = lo + static_cast<double>(i) * step;
    p.values.push_back(whole ? fmt::format("{:.0f}", v) : fmt::format("{:g}", v));
  }
  return p;
}

StatusOr<Parameter> ListParameter(const std::vector<std::string>& name_values) {
  if (name_values.size() != 2) {
    return Status::InvalidArgument("--parameter-list takes NAME VALUES, e.g. --parameter-list compiler gcc,clang");
  }
  Parameter p{name_values[0], {}};
  const std::string& list = name_values[1];
  for (size_t i = 0; i <= list.size();) {
    size_t comma = list.find(',', i);
    if (comma == std::string::npos) comma = list.size();
    p.values.push_back(list.substr(i, comma - i));
    i = comma + 1;
  }
  for (size_t i = 0; i < p.values.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (p.values[i] == p.values[j]) {
        return Status::InvalidArgument(fmt::format("--parameter-list {}: '{}' is listed twice", p.name, p.values[i]));
      }
    }
  }
  return p;
}

StatusOr<std::string> Substitute(const std::string& command, const std::string& name, const std::string& value) {
  if (name.empty() || name.find_first_of("{} \t") != std::string::npos) {
    return Status::InvalidArgument(fmt::format("parameter name '{}' must be a word, e.g. n or threads", name));
  }
  const std::string placeholder = "{" + name + "}";
  if (command.find(placeholder) == std::string::npos) {
    return Status::InvalidArgument(
        fmt::format("the command '{}' has no {}; every value of the parameter would measure the same command", command,
                    placeholder));
  }
  std::string out;
  for (size_t i = 0; i < command.size();) {
    if (command.compare(i, placeholder.size(), placeholder) == 0) {
      out += value;
      i += placeholder.size();
    } else {
      out += command[i++];
    }
  }
  return out;
}

}  // namespace tare::session
