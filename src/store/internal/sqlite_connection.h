// internal/sql.h over SQLiteCpp (the embedded backend's connection).
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>

#include <memory>

#include "store/internal/sql.h"

namespace tare::store {

class SqliteConnection final : public Connection {
 public:
  // `reserve_path`: the store's reserve file (sqlite_open.cc), "" for none (a read-only store).
  SqliteConnection(std::unique_ptr<SQLite::Database> db, std::string reserve_path);
  ~SqliteConnection() override;
  Dialect dialect() const override { return Dialect::kSqlite; }
  std::unique_ptr<StatementImpl> Prepare(const std::string& sql) override;
  void Exec(const std::string& sql) override;
  std::string DiskFullCause(const std::exception& e) override;
  bool FreeSpace() override;
  SQLite::Database& db() { return *db_; }

 private:
  std::unique_ptr<SQLite::Database> db_;
  std::string reserve_path_;
  int free_step_ = 0;
};

}  // namespace tare::store
