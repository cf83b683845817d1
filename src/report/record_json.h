// The documents' side of model/record_fields.h: a record as a JSON object with one key per field of
// its list, and back, so the tare.run/2 document (bundle/run_document.cc) carries every field a
// record has, and a field added to the list is exported and imported with no further code.
//
// Values: strings (a bytes field as report::BytesToJson writes it), numbers (NaN and infinities as
// null, read back as NaN), integers, booleans, enum names, lists of strings, and named figures as
// [[name, value], ...] (in order). Reading throws as base/json_read.h's readers do (inside
// ReadJson); a key that is absent is the field not kept (a document written by an older tare),
// named in `lacking`, and the member keeps its default.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <span>
#include <string>
#include <type_traits>

#include "base/json_read.h"
#include "base/numbers.h"
#include "model/record_fields.h"
#include "report/run_report.h"

namespace tare::report {

template <typename T>
nlohmann::json FieldsToJson(const T& rec, std::span<const Field<T>> fields) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& f : fields) {
    std::visit(
        [&](auto member) {
          const auto& v = rec.*member;
          using V = std::decay_t<decltype(v)>;
          nlohmann::json& out = j[f.name];
          if constexpr (std::is_same_v<V, std::string>) {
            out = f.bytes ? BytesToJson(v) : nlohmann::json(v);
          } else if constexpr (std::is_same_v<V, double>) {
            out = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
          } else if constexpr (std::is_same_v<V, NamedFigures>) {
            out = nlohmann::json::array();
            for (const auto& [name, value] : v) {
              out.push_back({name, std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr)});
            }
          } else if constexpr (std::is_same_v<V, Direction>) {
            out = DirectionName(v);
          } else if constexpr (std::is_same_v<V, Verdict>) {
            out = VerdictName(v);
          } else {
            out = v;  // int64, bool, a list of strings, CellRole and CheckKind (by name: model/kinds.h)
          }
        },
        f.member);
  }
  return j;
}

template <typename T>
void FieldsFromJson(const nlohmann::json& j, T* rec, std::span<const Field<T>> fields, std::set<std::string>* lacking,
                    const std::string& prefix = "") {
  for (const auto& f : fields) {
    if (!j.contains(f.name)) {
      if (lacking != nullptr) lacking->insert(prefix + f.name);
      continue;
    }
    std::visit(
        [&](auto member) {
          auto& v = rec->*member;
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::string>) {
            if (f.bytes) {
              v = JsonWithin(f.name, [&] { return OrThrow(BytesFromJson(j.at(f.name), f.name)); });
            } else {
              v = JsonAt<std::string>(j, f.name);
            }
          } else if constexpr (std::is_same_v<V, double>) {
            v = j.at(f.name).is_null() ? kNaN : JsonAt<double>(j, f.name);
          } else if constexpr (std::is_same_v<V, NamedFigures>) {
            v.clear();
            JsonEach(j, f.name, [&](const nlohmann::json& e) {
              if (!e.is_array() || e.size() != 2) JsonFail("expected [name, value]");
              v.emplace_back(JsonAs<std::string>(e[0]), e[1].is_null() ? kNaN : JsonAs<double>(e[1]));
            });
          } else if constexpr (std::is_same_v<V, Direction>) {
            v = JsonNameAt(j, f.name, ParseDirection);
          } else if constexpr (std::is_same_v<V, Verdict>) {
            v = JsonNameAt(j, f.name, ParseVerdict);
          } else {
            v = JsonAt<V>(j, f.name);
          }
        },
        f.member);
  }
}

}  // namespace tare::report
