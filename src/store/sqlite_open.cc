// Opening a SQLite store file: creating it, refusing files tare must not touch, WAL mode.
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "internal/sql_store.h"
#include "internal/sqlite_connection.h"

namespace tare::store {
namespace {

// How long an opener waits for another process's write lock before giving up.
constexpr int kBusyTimeoutMs = 10000;

// Switching to WAL needs an exclusive lock. When another process opening the same new file holds
// a lock that is waiting for ours, SQLite answers SQLITE_BUSY at once instead of calling the busy
// handler (it would deadlock), so the switch is retried here for as long as the busy timeout.
void SwitchToWal(SQLite::Database& db) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    try {
      db.exec("PRAGMA journal_mode=WAL");
      return;
    } catch (const SQLite::Exception& e) {
      if (e.getErrorCode() != SQLITE_BUSY || std::chrono::steady_clock::now() > give_up) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

StatusOr<std::unique_ptr<Store>> OpenSqlite(const std::string& path) {
  std::error_code ec;
  auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      return Status::InvalidArgument(fmt::format(
          "cannot create the store directory '{}': {}; choose another with --store PATH",
          parent.string(), ec.message()));
    }
  }
  std::unique_ptr<SQLite::Database> db;
  try {
    db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db->setBusyTimeout(kBusyTimeoutMs);
    // Reading the schema is the first real I/O: it fails here for a directory or a non-SQLite file.
    // A file tare refuses must be left exactly as it was, and switching to WAL rewrites its header:
    // someone else's database and a newer tare's store are refused before anything is written.
    // One statement, one snapshot: another process may be creating this store right now.
    SQLite::Statement state(*db, "SELECT user_version, (SELECT count(*) FROM sqlite_master) FROM pragma_user_version");
    state.executeStep();
    const int version = state.getColumn(0).getInt();
    const int tables = state.getColumn(1).getInt();
    state.reset();
    if (version == 0 && tables > 0) return NotATareStore(path);
    if (version > kSchemaVersion) return NewerSchema(path, version);
    SwitchToWal(*db);
    db->exec("PRAGMA synchronous=NORMAL");
    db->exec("PRAGMA temp_store=MEMORY");
    db->exec("PRAGMA foreign_keys=ON");
  } catch (const std::exception& e) {
    return Status::InvalidArgument(fmt::format(
        "cannot open the store '{}': {}; check the path is a writable tare store or choose "
        "another with --store PATH", path, e.what()));
  }
  auto store = std::make_unique<SqlStore>(path, std::make_unique<SqliteConnection>(std::move(db)));
  TARE_RETURN_IF_ERROR(store->Migrate());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace tare::store
