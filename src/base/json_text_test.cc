#include "base/json_text.h"

#include <cstdint>
#include <stdexcept>

#include "base/json_number.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace tare {
namespace {

TEST(DumpJson, InvalidUtf8BecomesReplacementCharacters) {
  nlohmann::json j = {{"tail", std::string("ok\xff\xfe")}};
  const std::string text = DumpJson(j);
  EXPECT_EQ(text, "{\"tail\":\"ok\xEF\xBF\xBD\xEF\xBF\xBD\"}");
}

TEST(DumpJson, C1ControlsAreEscapedAndParseBackToTheSameString) {
  // U+009B (CSI) in a benchmark name: raw, a terminal may start an escape sequence with it.
  const std::string name =
      "BM_\xC2\x9B"
      "31m_red\xC2\x80\xC2\x9F"
      "end \xC2\xA0 \xC3\xA9";
  nlohmann::json j = {{"name", name}};
  const std::string text = DumpJson(j);
  EXPECT_EQ(text.find("\xC2\x9B"), std::string::npos) << text;
  EXPECT_EQ(text.find("\xC2\x80"), std::string::npos) << text;
  EXPECT_NE(text.find("BM_\\u009b31m_red\\u0080\\u009fend"), std::string::npos) << text;
  // Other characters that start with 0xC2 (U+00A0) and the rest of UTF-8 are left alone.
  EXPECT_NE(text.find("\xC2\xA0 \xC3\xA9"), std::string::npos) << text;
  EXPECT_EQ(nlohmann::json::parse(text)["name"], name);
  // Pretty-printed output the same.
  EXPECT_EQ(nlohmann::json::parse(DumpJson(j, 2))["name"], name);
}

TEST(DumpJson, C0ControlsStayEscaped) {
  nlohmann::json j = {{"s", std::string("a\x1b[2Jb\x07")}};
  EXPECT_EQ(DumpJson(j), "{\"s\":\"a\\u001b[2Jb\\u0007\"}");
}

TEST(JsonInteger, ReadsOnlyIntegersThatFitTheType) {
  using nlohmann::json;
  EXPECT_EQ(JsonInteger<int64_t>(json(INT64_MAX), "x"), INT64_MAX);
  EXPECT_EQ(JsonInteger<int64_t>(json(INT64_MIN), "x"), INT64_MIN);
  EXPECT_EQ(JsonInteger<uint64_t>(json(UINT64_MAX), "x"), UINT64_MAX);
  EXPECT_EQ(JsonInteger<int>(json(-7), "x"), -7);
  EXPECT_EQ(JsonInteger<int64_t>(json::parse("9223372036854775807"), "x"), INT64_MAX);
  // Not integers, or integers out of the type's range: refused, naming the field.
  for (const json& v : {json(3.0), json(1e300), json(2.1796141803706527842e19), json(UINT64_MAX), json("5"),
                        json(nullptr), json::parse("9223372036854775808")}) {
    try {
      JsonInteger<int64_t>(v, "started_unix_ns");
      ADD_FAILURE() << "accepted " << v.dump();
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("'started_unix_ns'"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(JsonInteger<uint64_t>(json(-1), "x"), std::runtime_error);
  EXPECT_THROW(JsonInteger<int>(json(int64_t{1} << 40), "x"), std::runtime_error);
  EXPECT_THROW(JsonIntegerAt<int64_t>(json::object(), "missing"), std::exception);
}

}  // namespace
}  // namespace tare
