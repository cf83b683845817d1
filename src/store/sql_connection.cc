// The backend-neutral parts of internal/sql.h: statements' NULL for NaN, the statement cache and
// nesting transactions.
#include <fmt/format.h>

#include <cmath>

#include "internal/sql.h"

namespace tare::store {

Statement::Statement(Connection& db, const std::string& sql) : impl_(db.Prepare(sql)) {}

void Statement::bind(int i, double v) {
  if (std::isfinite(v)) {
    impl_->BindDouble(i, v);
  } else {
    impl_->BindNull(i);
  }
}

void Connection::CopyIn(const std::string&, const std::string&) {
  throw SqlError("COPY is PostgreSQL's; this store is not");
}

Statement& Connection::Cached(const char* sql) {
  auto& slot = cache_[sql];
  if (slot == nullptr) {
    slot = std::make_unique<Statement>(Prepare(sql));
  } else {
    slot->tryReset();  // also after a step that threw; every parameter is bound again
  }
  return *slot;
}

void Connection::Begin() {
  if (depth_ == 0) {
    Exec(dialect() == Dialect::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN");
  } else {
    Exec(fmt::format("SAVEPOINT tare_{}", depth_));
  }
  ++depth_;
}

void Connection::Commit() {
  if (depth_ == 1) {
    Exec("COMMIT");
  } else {
    Exec(fmt::format("RELEASE SAVEPOINT tare_{}", depth_ - 1));
  }
  --depth_;
}

void Connection::Rollback() {
  const int level = depth_ - 1;
  depth_ = level;  // whatever happens below, this level is over
  if (level == 0) {
    Exec("ROLLBACK");
  } else {
    Exec(fmt::format("ROLLBACK TO SAVEPOINT tare_{}", level));
    Exec(fmt::format("RELEASE SAVEPOINT tare_{}", level));
  }
}

}  // namespace tare::store
