// internal/sql.h over SQLiteCpp (the embedded backend's connection).
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>

#include <memory>

#include "store/internal/sql.h"

namespace tare::store {

class SqliteConnection final : public Connection {
 public:
  explicit SqliteConnection(std::unique_ptr<SQLite::Database> db);
  ~SqliteConnection() override;
  Dialect dialect() const override { return Dialect::kSqlite; }
  std::unique_ptr<StatementImpl> Prepare(const std::string& sql) override;
  void Exec(const std::string& sql) override;
  SQLite::Database& db() { return *db_; }

 private:
  std::unique_ptr<SQLite::Database> db_;
};

}  // namespace tare::store
