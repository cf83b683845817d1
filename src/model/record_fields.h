// The one field list of each record tare stores about a cohort's verdicts: the verdict of one
// metric (AbMetricResult), the comparison of one head in one cell (AbComparison's own fields), its
// broken arms (AbBroken), its cross-check (AbCrossCheck) and a gate or bound (AbCheck).
//
// The store's columns (store/internal/sql_fields.h), the tare.run/2 document (bundle/run_document.cc)
// and the tare.ab/1 JSON (report/ab_json.cc) iterate these lists instead of naming the fields one by
// one, so a field added to a record is stored, exported and read back by all of them, or by none
// (issue 47: the store kept 16 of the verdict's 24 fields, and a bundle's ledger lost the bound, the
// units and the cross-check). A record's member that is not in its list fails to compile in
// record_fields.cc (a structured binding counts the members), so adding one means listing it.
//
// A field is a name (the store's column, the documents' key) and a member pointer (its getter and
// setter at once); `since` is the store schema version whose migration added the column: a store
// written before it reads the column as NULL, and what it lacks is said (store::StoredLook::lacks).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model/kinds.h"
#include "model/metric.h"
#include "model/verdict.h"

namespace tare {

// (name, value) pairs, in order: the sim figures of a cross-check.
using NamedFigures = std::vector<std::pair<std::string, double>>;

template <typename T>
using FieldMember = std::variant<std::string T::*, double T::*, int64_t T::*, bool T::*, std::vector<std::string> T::*,
                                 NamedFigures T::*, Direction T::*, Verdict T::*, CellRole T::*, CheckKind T::*>;

template <typename T>
struct Field {
  const char* name;
  FieldMember<T> member;
  int since = 2;                 // the store schema version that added its column
  bool bytes = false;            // text from outside tare (a benchmark's name or output): may not be UTF-8
  const char* column = nullptr;  // the store's column when the name is SQL's own word ("limit")

  const char* column_name() const { return column != nullptr ? column : name; }
};

// The schema version that added what tare kept of a verdict before only in memory (issue 47).
inline constexpr int kFullVerdictSchema = 7;

// The verdict of one metric: every member of AbMetricResult.
std::span<const Field<AbMetricResult>> MetricResultFields();
// A comparison's own fields: every member of AbComparison except its keys (cell, head), its
// metrics (MetricResultFields each) and its nested records (broken, cross_check).
std::span<const Field<AbComparison>> ComparisonFields();
std::span<const Field<AbBroken>> BrokenFields();
std::span<const Field<AbCrossCheck>> CrossCheckFields();
// A gate or bound: every member of AbCheck.
std::span<const Field<AbCheck>> CheckFields();

}  // namespace tare
