#include "base/json_read.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace tare {
namespace {

using nlohmann::json;

// A Status-returning parser, as model/kinds.h has them.
StatusOr<int> ParseRole(const std::string& name) {
  if (name == "control") return 1;
  if (name == "head") return 2;
  return Status::InvalidArgument("unknown cell role '" + name + "'");
}

struct Cell {
  std::string name;
  int role = 0;
  int64_t repeats = 1;
};

struct Doc {
  std::string title;
  std::vector<Cell> cells;
};

Cell ReadCell(const json& c) {
  Cell cell;
  cell.name = JsonAt<std::string>(c, "name");
  cell.role = JsonNameAt(c, "role", ParseRole);
  cell.repeats = JsonAtOr<int64_t>(c, "repeats", 1);
  return cell;
}

Doc ReadDoc(const json& j) {
  Doc d;
  d.title = JsonAt<std::string>(j, "title");
  JsonEach(j, "cells", [&](const json& c) { d.cells.push_back(ReadCell(c)); });
  return d;
}

StatusOr<Doc> Read(const std::string& text) { return ReadJsonText<Doc>(text, "the test doc", ReadDoc); }

TEST(ParseJson, ValidTextParses) {
  auto j = ParseJson(R"({"a": [1, 2]})", "x");
  ASSERT_TRUE(j.ok()) << j.status().message();
  EXPECT_EQ((*j)["a"][1], 2);
}

TEST(ParseJson, MalformedTextIsDataLossWithTheBytePosition) {
  auto j = ParseJson(R"({"a": tru})", "run 12's lock");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.status().code(), StatusCode::kDataLoss);
  // nlohmann stops at byte 10, the '}' after "tru" (1-based, as its column).
  EXPECT_EQ(j.status().message(),
            "run 12's lock: not valid JSON at byte 10 (parse error at line 1, column 10: syntax error while "
            "parsing value - invalid literal; last read: '\"a\": tru}')");
}

TEST(ParseJson, TruncatedTextNamesTheEnd) {
  auto j = ParseJson(R"({"a": [1, 2)", "the manifest");
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.status().message().find("the manifest: not valid JSON at byte 12 ("), std::string::npos)
      << j.status().message();
  EXPECT_NE(j.status().message().find("unexpected end of input"), std::string::npos) << j.status().message();
}

TEST(ParseJson, EmptyTextIsAnErrorUnlessTheCallerSaysWhatItMeans) {
  auto j = ParseJson("", "run 3's fingerprint");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(j.status().message(), "run 3's fingerprint: empty, where JSON was expected");

  auto none = ParseJsonOr("", "run 3's fingerprint", json::object());
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, json::object());
  // Only empty text falls back: malformed text is still an error.
  EXPECT_FALSE(ParseJsonOr("{", "run 3's fingerprint", json::object()).ok());
  EXPECT_FALSE(ParseJsonOr(" ", "run 3's fingerprint", json::object()).ok());
}

TEST(ParseJson, NumberPastDoubleIsDataLossNotAnException) {
  auto j = ParseJson("1e400", "x");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(j.status().message().find("x: not valid JSON"), std::string::npos) << j.status().message();
}

TEST(ReadJson, AWellFormedDocumentReads) {
  auto d = Read(
      R"({"title": "t", "cells": [{"name": "a", "role": "control"}, {"name": "b", "role": "head", "repeats": 3}]})");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->title, "t");
  ASSERT_EQ(d->cells.size(), 2u);
  EXPECT_EQ(d->cells[0].role, 1);
  EXPECT_EQ(d->cells[0].repeats, 1);  // absent: the default
  EXPECT_EQ(d->cells[1].repeats, 3);
}

TEST(ReadJson, AStatusParserErrorCarriesThePointer) {
  auto d = Read(R"({"title": "t", "cells": [{"name": "a", "role": "control"}, {"name": "b", "role": "x"}]})");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(d.status().message(), "the test doc: at /cells/1/role: unknown cell role 'x'");
}

TEST(ReadJson, OrThrowTakesAStatusParserInsideAReader) {
  auto r = ReadJson<int>(json("x"), "the role", [](const json& j) { return OrThrow(ParseRole(j.get<std::string>())); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "the role: unknown cell role 'x'");
}

TEST(ReadJson, MissingFieldNamesItAndItsParent) {
  auto d = Read(R"({"title": "t", "cells": [{"role": "head"}]})");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "the test doc: at /cells/0: missing field 'name'");
  auto top = Read(R"({"cells": []})");
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.status().message(), "the test doc: missing field 'title'");
}

TEST(ReadJson, WrongTypesAreDataLossNotExceptions) {
  auto d = Read(R"({"title": 7, "cells": []})");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "the test doc: at /title: type must be string, but is number");
  auto not_array = Read(R"({"title": "t", "cells": {}})");
  ASSERT_FALSE(not_array.ok());
  EXPECT_EQ(not_array.status().message(), "the test doc: at /cells: expected an array, found object");
  auto not_object = Read(R"([1])");
  ASSERT_FALSE(not_object.ok());
  EXPECT_EQ(not_object.status().message(), "the test doc: expected an object with field 'title', found array");
}

TEST(ReadJson, IntegersAreCheckedNotCast) {
  // get<int64_t>() of 1e300 is undefined behaviour; JsonAt reads only an integer that fits.
  auto d = Read(R"({"title": "t", "cells": [{"name": "a", "role": "head", "repeats": 1e300}]})");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("the test doc: at /cells/0/repeats: 'repeats' is 1e+300, not an integer"),
            std::string::npos)
      << d.status().message();
  auto optional_wrong = Read(R"({"title": "t", "cells": [{"name": "a", "role": "head", "repeats": "3"}]})");
  ASSERT_FALSE(optional_wrong.ok());  // present but not an integer: not the default
  EXPECT_EQ(ReadJson<uint8_t>(json(300), "a byte").status().message(),
            "a byte: 'the value' is 300, not an integer in [0, 255]");
}

TEST(ReadJson, PointerSegmentsAreEscaped) {
  auto r = ReadJson<int>(json::object({{"a/b~c", "x"}}), "doc", [](const json& j) { return JsonAt<int>(j, "a/b~c"); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("doc: at /a~1b~0c: "), std::string::npos) << r.status().message();
}

TEST(ReadJson, NlohmannExceptionsFromPlainAccessAreCaughtToo) {
  // A reader that uses nlohmann's own at(): the exception still stops at ReadJson's boundary.
  auto r = ReadJson<std::string>(json::object(), "doc", [](const json& j) { return j.at("k").get<std::string>(); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "doc: key 'k' not found");
}

// A from_json that throws std::runtime_error (model/kinds.h does, for a name it does not know).
enum class Shade { kDark };
void from_json(const json& j, Shade& s) {
  if (j.get<std::string>() != "dark") throw std::runtime_error("unknown shade '" + j.get<std::string>() + "'");
  s = Shade::kDark;
}

TEST(ReadJson, AFromJsonsRuntimeErrorIsDataLossAtItsField) {
  auto r = ReadJson<Shade>(json::parse(R"({"shades": [{"s": "dark"}, {"s": "pale"}]})"), "doc", [](const json& j) {
    Shade last = Shade::kDark;
    JsonEach(j, "shades", [&](const json& x) { last = JsonAt<Shade>(x, "s"); });
    return last;
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "doc: at /shades/1/s: unknown shade 'pale'");
  EXPECT_EQ(ReadJson<Shade>(json("pale"), "a shade").status().message(), "a shade: unknown shade 'pale'");
}

TEST(ReadJson, ViaFromJsonOfTheType) {
  auto m = ReadJson<std::map<std::string, int>>(json::parse(R"({"a": 1, "b": "2"})"), "the map");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "the map: type must be number, but is string");
  EXPECT_EQ(*ReadJson<std::vector<int>>(json::parse("[1,2]"), "v"), (std::vector<int>{1, 2}));
}

TEST(EmbedJson, ValidTextIsItsValueAndEmptyIsTheCallersChoice) {
  EXPECT_EQ(EmbedJson(R"({"a":1})", nullptr), json::parse(R"({"a":1})"));
  EXPECT_EQ(EmbedJson("", json::object()), json::object());
  EXPECT_TRUE(EmbedJson("", nullptr).is_null());
}

TEST(EmbedJson, MalformedTextIsKeptAsAStringNeverNull) {
  const json j = EmbedJson("{\"a\": tru", nullptr);
  ASSERT_TRUE(j.is_string());
  EXPECT_EQ(j.get<std::string>(), "{\"a\": tru");
}

}  // namespace
}  // namespace tare
