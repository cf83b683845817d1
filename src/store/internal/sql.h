// The SQL connection both backends of store::Store run on: SQLite (SQLiteCpp) and PostgreSQL
// (libpq). The store's code (sql_*.cc) is written once against this: statements with `?`
// parameters, in the SQL both databases accept (UPSERT's ON CONFLICT, RETURNING, substr, ...); the
// PostgreSQL connection numbers the parameters ($1, $2...). Private to src/store.
//
// Errors are exceptions (SqlError) inside this module only: every store method runs its statements
// inside Guard (sql_store.h), which turns them into a Status naming the store. A connection lost
// mid-statement is a SqlError with connection_lost set, which the store retries.
//
// Statement keeps SQLiteCpp's method names (bind, executeStep, getColumn(i).getInt64()...), so the
// store's SQL code reads as it did when it only spoke SQLite.
//
// Thread-safety: one connection per thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace tare::store {

enum class Dialect { kSqlite, kPostgres };

class SqlError : public std::runtime_error {
 public:
  SqlError(const std::string& what, bool connection_lost = false, bool unique_violation = false)
      : std::runtime_error(what), connection_lost_(connection_lost), unique_violation_(unique_violation) {}
  bool connection_lost() const { return connection_lost_; }
  bool unique_violation() const { return unique_violation_; }

 private:
  bool connection_lost_;
  bool unique_violation_;
};

// One prepared statement of a backend.
class StatementImpl {
 public:
  virtual ~StatementImpl() = default;
  virtual void BindInt(int index, int64_t v) = 0;
  virtual void BindDouble(int index, double v) = 0;  // finite only (Statement maps NaN to NULL)
  virtual void BindText(int index, const std::string& v) = 0;
  virtual void BindBlob(int index, const void* data, size_t size) = 0;
  virtual void BindNull(int index) = 0;
  // Bytes that need not be text (a child's output): TEXT on SQLite, which keeps any bytes; BYTEA on
  // PostgreSQL, whose text holds neither NUL nor invalid UTF-8 (RenderMigration makes those
  // columns BYTEA). Read back with Bytes.
  virtual void BindBytes(int index, const std::string& v) = 0;
  virtual std::string Bytes(int column) = 0;
  virtual bool Step() = 0;   // executes on the first call; true while there is a row
  virtual void Reset() = 0;  // ready to bind and run again
  virtual bool IsNull(int column) = 0;
  virtual int64_t Int(int column) = 0;
  virtual double Double(int column) = 0;
  virtual std::string Text(int column) = 0;
  virtual std::string Blob(int column) = 0;
};

class Connection;

// A statement with SQLiteCpp's surface over either backend.
class Statement {
 public:
  Statement(Connection& db, const std::string& sql);
  explicit Statement(std::unique_ptr<StatementImpl> impl) : impl_(std::move(impl)) {}

  void bind(int i, int64_t v) { impl_->BindInt(i, v); }
  void bind(int i, int v) { impl_->BindInt(i, v); }
  void bind(int i, double v);  // NaN and infinities are NULL: SQLite has no NaN
  void bind(int i, const std::string& v) { impl_->BindText(i, v); }
  void bind(int i, const char* v) { impl_->BindText(i, v); }
  void bind(int i, const void* data, int size) { impl_->BindBlob(i, data, static_cast<size_t>(size)); }
  void bind(int i) { impl_->BindNull(i); }
  void bindBytes(int i, const std::string& v) { impl_->BindBytes(i, v); }
  bool executeStep() { return impl_->Step(); }
  void exec() {
    while (impl_->Step()) {
    }
  }
  void reset() { impl_->Reset(); }
  void tryReset() { impl_->Reset(); }

  class Column {
   public:
    Column(StatementImpl* s, int c) : s_(s), c_(c) {}
    bool isNull() const { return s_->IsNull(c_); }
    int64_t getInt64() const { return s_->Int(c_); }
    int getInt() const { return static_cast<int>(s_->Int(c_)); }
    double getDouble() const { return s_->Double(c_); }
    std::string getString() const { return s_->Text(c_); }
    std::string getBlobString() const { return s_->Blob(c_); }
    std::string getByteString() const { return s_->Bytes(c_); }

   private:
    StatementImpl* s_;
    int c_;
  };
  Column getColumn(int c) { return Column(impl_.get(), c); }

 private:
  std::unique_ptr<StatementImpl> impl_;
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  // `sql` with `?` parameters.
  virtual std::unique_ptr<StatementImpl> Prepare(const std::string& sql) = 0;
  // One or more statements without parameters.
  virtual void Exec(const std::string& sql) = 0;
  // PostgreSQL's COPY ... FROM STDIN of `data` (COPY's text format); SqlError on SQLite.
  virtual void CopyIn(const std::string& copy_sql, const std::string& data);
  // Re-establishes a lost connection (PostgreSQL); false when it cannot yet.
  virtual bool Reconnect() { return false; }
  // When `e` (thrown by a write) means the disk is full or a file size limit was reached: what
  // happened and what to do, for the message; "" for any other error.
  virtual std::string DiskFullCause(const std::exception& e) {
    (void)e;
    return "";
  }
  // After a write failed for want of space: frees what can be freed for the writes that finish a
  // run, one step per call (SQLite: the store's reserve file, then a checkpoint that lets the WAL
  // start over); false once there is nothing left to try.
  virtual bool FreeSpace() { return false; }

  // The statement for `sql` (a string constant), prepared on first use and reset for reuse.
  Statement& Cached(const char* sql);
  // Forgets cached statements (after a reconnect they belong to the old session).
  void ClearCache() { cache_.clear(); }

  // Transactions that nest: the outermost is a transaction (BEGIN IMMEDIATE on SQLite, which
  // takes the write lock at once), inner ones savepoints.
  void Begin();
  void Commit();
  void Rollback();
  int depth() const { return depth_; }
  void ForgetTransaction() { depth_ = 0; }  // after the server dropped the connection

 private:
  std::map<const char*, std::unique_ptr<Statement>> cache_;
  int depth_ = 0;
};

// One write of several statements: rolled back unless Release() is reached.
class WriteScope {
 public:
  explicit WriteScope(Connection& db) : db_(db) { db_.Begin(); }
  WriteScope(const WriteScope&) = delete;
  WriteScope& operator=(const WriteScope&) = delete;
  ~WriteScope() {
    if (released_) return;
    try {
      db_.Rollback();
    } catch (const std::exception&) {
      // The connection is gone or the database already rolled the transaction back.
    }
  }
  void Release() {
    db_.Commit();
    released_ = true;
  }

 private:
  Connection& db_;
  bool released_ = false;
};

}  // namespace tare::store
