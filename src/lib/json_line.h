// JsonLine: writes one line of JSON for the child protocol. Hand-written so the library that
// benchmark authors link stays free of JSON dependencies; it writes only what the protocol needs
// (objects, arrays, strings, unsigned/signed integers, finite doubles).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tare::internal {

class JsonLine {
 public:
  JsonLine& BeginObject();
  JsonLine& EndObject();
  JsonLine& BeginArray();
  JsonLine& EndArray();
  JsonLine& Key(std::string_view key);
  JsonLine& String(std::string_view value);
  JsonLine& Uint(uint64_t value);
  JsonLine& Int(int64_t value);
  JsonLine& Bool(bool value);
  JsonLine& Double(double value);  // shortest form that reads back exactly; must be finite

  // The text so far plus a newline.
  std::string Line() const { return text_ + "\n"; }

 private:
  void BeforeValue();
  std::string text_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// `s` as a JSON string literal, quotes included.
std::string JsonQuote(std::string_view s);

}  // namespace tare::internal
