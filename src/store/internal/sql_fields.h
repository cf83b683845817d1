// The store's side of model/record_fields.h: a record's columns, bound and read by iterating its
// field list, so a field added to the list is written and read by every statement that uses it.
//
// Column types: text for strings (bytes fields as bytes: BYTEA on PostgreSQL), REAL for doubles
// (NaN is NULL), INTEGER for int64 and bool, the name for an enum (an unknown name is an error,
// never a default), JSON text for a list. A column that is NULL in a row of a store written before
// the field's migration (Field::since) leaves the member at its default and is named in `lacking`.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/json_read.h"
#include "base/json_text.h"
#include "model/record_fields.h"
#include "store/internal/sql.h"
#include "store/internal/sql_store.h"

namespace tare::store {

// "prefix" + each field's column, comma-separated: "unit, direction" or "broken_arms, broken_samples".
template <typename T>
std::string FieldColumns(std::span<const Field<T>> fields, const std::string& prefix = "") {
  std::string out;
  for (const auto& f : fields) out += (out.empty() ? "" : ", ") + prefix + f.column_name();
  return out;
}

// Binds each field of `rec` from parameter *index on, advancing it; a field `lacks` names (with
// `prefix`) is NULL: a record read from an older store stays one that does not have it.
template <typename T>
void BindFields(Statement& q, int* index, const T& rec, std::span<const Field<T>> fields,
                const std::set<std::string>& lacks = {}, const std::string& prefix = "") {
  for (const auto& f : fields) {
    const int i = (*index)++;
    if (lacks.count(prefix + f.name) != 0) {
      q.bind(i);
      continue;
    }
    std::visit(
        [&](auto member) {
          const auto& v = rec.*member;
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::string>) {
            if (f.bytes) {
              q.bindBytes(i, v);
            } else {
              q.bind(i, v);
            }
          } else if constexpr (std::is_same_v<V, double>) {
            q.bind(i, v);
          } else if constexpr (std::is_same_v<V, int64_t>) {
            q.bind(i, v);
          } else if constexpr (std::is_same_v<V, bool>) {
            q.bind(i, static_cast<int64_t>(v ? 1 : 0));
          } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
            q.bind(i, DumpJson(nlohmann::json(v)));
          } else if constexpr (std::is_same_v<V, NamedFigures>) {
            nlohmann::json j = nlohmann::json::array();  // [[name, value or null], ...]
            for (const auto& [name, value] : v) {
              j.push_back({name, std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr)});
            }
            q.bind(i, DumpJson(j));
          } else if constexpr (std::is_same_v<V, Direction>) {
            q.bind(i, DirectionName(v));
          } else if constexpr (std::is_same_v<V, Verdict>) {
            q.bind(i, std::string(VerdictName(v)));
          } else if constexpr (std::is_same_v<V, CellRole>) {
            q.bind(i, CellRoleName(v));
          } else {
            static_assert(std::is_same_v<V, CheckKind>);
            q.bind(i, CheckKindName(v));
          }
        },
        f.member);
  }
}

// Reads each field of `rec` from column *col on, advancing it; `what` names a field in errors, with
// "{}" where the field's name goes ("run 3 cell 1 look 2's {} for wall_ns").
template <typename T>
void ReadFields(Statement& q, int* col, T* rec, std::span<const Field<T>> fields, const std::string& what,
                std::set<std::string>* lacking, const std::string& prefix = "") {
  for (const auto& f : fields) {
    const auto c = q.getColumn((*col)++);
    std::visit(
        [&](auto member) {
          auto& v = rec->*member;
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, double>) {
            v = c.isNull() ? kNaN : c.getDouble();  // NULL: NaN, as written (never "not kept")
            return;
          } else {
            if (c.isNull()) {
              if (lacking != nullptr) lacking->insert(prefix + f.name);
              return;
            }
            std::string field = what;
            if (const size_t at = field.find("{}"); at != std::string::npos) field.replace(at, 2, prefix + f.name);
            if constexpr (std::is_same_v<V, std::string>) {
              v = f.bytes ? c.getByteString() : c.getString();
            } else if constexpr (std::is_same_v<V, int64_t>) {
              v = c.getInt64();
            } else if constexpr (std::is_same_v<V, bool>) {
              v = c.getInt64() != 0;
            } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
              v = StoredJson(ReadJsonText<V>(c.getString(), field, [](const nlohmann::json& j) { return j.get<V>(); }));
            } else if constexpr (std::is_same_v<V, NamedFigures>) {
              v = StoredJson(ReadJsonText<V>(c.getString(), field, [](const nlohmann::json& j) {
                V out;
                for (const auto& e : j) {
                  out.emplace_back(e.at(0).get<std::string>(), e.at(1).is_null() ? kNaN : e.at(1).get<double>());
                }
                return out;
              }));
            } else {
              auto parsed = [&] {
                if constexpr (std::is_same_v<V, Direction>) return ParseDirection(c.getString());
                else if constexpr (std::is_same_v<V, Verdict>) return ParseVerdict(c.getString());
                else if constexpr (std::is_same_v<V, CellRole>) return ParseCellRole(c.getString());
                else return ParseCheckKind(c.getString());
              }();
              if (!parsed.ok()) {
                throw SqlError(
                    fmt::format("{}: {}; this store was written by another version of tare or "
                                "changed by hand",
                                field, parsed.status().message()));
              }
              v = *parsed;
            }
          }
        },
        f.member);
  }
}

}  // namespace tare::store
