// internal/sql.h over SQLiteCpp.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include "internal/sqlite_connection.h"

namespace tare::store {
namespace {

class SqliteStatement final : public StatementImpl {
 public:
  SqliteStatement(SQLite::Database& db, const std::string& sql) : q_(db, sql) {}
  void BindInt(int i, int64_t v) override { q_.bind(i, static_cast<int64_t>(v)); }
  void BindDouble(int i, double v) override { q_.bind(i, v); }
  void BindText(int i, const std::string& v) override { q_.bind(i, v); }
  void BindBlob(int i, const void* data, size_t size) override { q_.bind(i, data, static_cast<int>(size)); }
  void BindNull(int i) override { q_.bind(i); }
  void BindBytes(int i, const std::string& v) override { q_.bind(i, v); }
  std::string Bytes(int c) override { return q_.getColumn(c).getString(); }
  bool Step() override { return q_.executeStep(); }
  void Reset() override { q_.tryReset(); }
  bool IsNull(int c) override { return q_.getColumn(c).isNull(); }
  int64_t Int(int c) override { return q_.getColumn(c).getInt64(); }
  double Double(int c) override { return q_.getColumn(c).getDouble(); }
  std::string Text(int c) override { return q_.getColumn(c).getString(); }
  std::string Blob(int c) override {
    auto col = q_.getColumn(c);
    return std::string(static_cast<const char*>(col.getBlob()), static_cast<size_t>(col.getBytes()));
  }

 private:
  SQLite::Statement q_;
};

}  // namespace

SqliteConnection::SqliteConnection(std::unique_ptr<SQLite::Database> db) : db_(std::move(db)) {}
SqliteConnection::~SqliteConnection() { ClearCache(); }

std::unique_ptr<StatementImpl> SqliteConnection::Prepare(const std::string& sql) {
  try {
    return std::make_unique<SqliteStatement>(*db_, sql);
  } catch (const SQLite::Exception& e) {
    throw SqlError(e.what());
  }
}

void SqliteConnection::Exec(const std::string& sql) { db_->exec(sql); }

}  // namespace tare::store
