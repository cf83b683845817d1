// internal/sql.h over SQLiteCpp (the embedded backend's connection).
#pragma once

#include <SQLiteCpp/SQLiteCpp.h>

#include <memory>
#include <string>

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

// The store file's state as tare's own last clean close left it (sqlite_open.cc): the boot, the
// file's device, inode, size, modification and change times. Written into the store's reserve
// file (which exists only beside a store tare writes) after a close that left no WAL behind; an
// open that finds the same state and no WAL skips PRAGMA quick_check. "" when anything is unknown.
std::string CleanCloseStamp(const std::string& path);
void StampCleanClose(const std::string& path, const std::string& reserve_path);
bool UnchangedSinceCleanClose(const std::string& path, const std::string& reserve_path);

}  // namespace tare::store
