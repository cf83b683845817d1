// internal/sql.h over SQLiteCpp.
#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

SqliteConnection::SqliteConnection(std::unique_ptr<SQLite::Database> db, std::string reserve_path)
    : db_(std::move(db)), reserve_path_(std::move(reserve_path)) {}
SqliteConnection::~SqliteConnection() {
  ClearCache();
  const std::string path = db_->getFilename();
  db_.reset();  // the last connection's close checkpoints the WAL into the file and removes it
  if (!reserve_path_.empty() && !path.empty()) StampCleanClose(path, reserve_path_);
}

std::unique_ptr<StatementImpl> SqliteConnection::Prepare(const std::string& sql) {
  try {
    return std::make_unique<SqliteStatement>(*db_, sql);
  } catch (const SQLite::Exception& e) {
    throw SqlError(e.what());
  }
}

void SqliteConnection::Exec(const std::string& sql) { db_->exec(sql); }

// SQLite's unix VFS answers SQLITE_FULL for ENOSPC and SQLITE_IOERR_WRITE for a write(2) that
// failed otherwise: EFBIG past a file size limit (RLIMIT_FSIZE, `ulimit -f`; tare ignores SIGXFSZ
// so that it is an error, not a kill), EDQUOT past a disk quota, EIO. sqlite3_system_errno names
// the errno when it is still known; by the time SQLiteCpp's exception is caught it often is not
// (0), so a failed write is described by its possible causes.
std::string SqliteConnection::DiskFullCause(const std::exception& e) {
  const auto* failure = dynamic_cast<const SQLite::Exception*>(&e);
  if (failure == nullptr) return "";
  const int code = failure->getExtendedErrorCode();
  const int sys = sqlite3_system_errno(db_->getHandle());
  std::string what;
  if ((code & 0xff) == SQLITE_FULL || sys == ENOSPC) {
    what = "the disk is full";
  } else if (sys == EFBIG) {
    what = "a file size limit (`ulimit -f`) was reached (EFBIG)";
  } else if (sys == EDQUOT) {
    what = "the disk quota is exceeded";
  } else if (code == SQLITE_IOERR_WRITE) {
    what =
        "a write to the store failed: the disk is full, a file size limit (`ulimit -f`) or a disk "
        "quota was reached, or the disk failed";
  } else {
    return "";
  }
  return fmt::format(
      "{}; free space on the store's disk (or raise the limit) and run again: what "
      "was stored before this is kept",
      what);
}

bool SqliteConnection::FreeSpace() {
  if (free_step_ == 0) {
    ++free_step_;
    if (!reserve_path_.empty() && unlink(reserve_path_.c_str()) == 0) return true;
  }
  if (free_step_ == 1) {
    ++free_step_;
    // Copies the WAL into the database and empties it, so the next write starts the WAL over
    // instead of growing it: enough under a per-file limit (EFBIG), and when the database file
    // has room the full disk lacks.
    try {
      db_->exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (const std::exception&) {
      // Nothing more to free; the caller's write fails again and says why.
    }
    return true;
  }
  return false;
}

}  // namespace tare::store
