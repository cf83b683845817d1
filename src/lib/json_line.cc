#include "lib/json_line.h"

#include <charconv>
#include <cstdio>

namespace tare::internal {

void JsonLine::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) text_ += ',';
    first_.back() = false;
  }
}

JsonLine& JsonLine::BeginObject() {
  BeforeValue();
  text_ += '{';
  first_.push_back(true);
  return *this;
}

JsonLine& JsonLine::EndObject() {
  text_ += '}';
  first_.pop_back();
  return *this;
}

JsonLine& JsonLine::BeginArray() {
  BeforeValue();
  text_ += '[';
  first_.push_back(true);
  return *this;
}

JsonLine& JsonLine::EndArray() {
  text_ += ']';
  first_.pop_back();
  return *this;
}

JsonLine& JsonLine::Key(std::string_view key) {
  BeforeValue();
  text_ += JsonQuote(key);
  text_ += ':';
  after_key_ = true;
  return *this;
}

JsonLine& JsonLine::String(std::string_view value) {
  BeforeValue();
  text_ += JsonQuote(value);
  return *this;
}

JsonLine& JsonLine::Uint(uint64_t value) {
  BeforeValue();
  text_ += std::to_string(value);
  return *this;
}

JsonLine& JsonLine::Int(int64_t value) {
  BeforeValue();
  text_ += std::to_string(value);
  return *this;
}

JsonLine& JsonLine::Bool(bool value) {
  BeforeValue();
  text_ += value ? "true" : "false";
  return *this;
}

JsonLine& JsonLine::Double(double value) {
  BeforeValue();
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  std::string_view text(buf, ec == std::errc() ? size_t(end - buf) : 0);
  // Callers reject non-finite values before writing; never emit a token JSON cannot read.
  const bool finite = !text.empty() && text.find_first_of("in") == std::string_view::npos;
  text_.append(finite ? text : std::string_view("0"));
  return *this;
}

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace tare::internal
