// internal/sql.h over libpq (the PostgreSQL backend's connection).
#pragma once

#include <memory>
#include <string>

#include "store/internal/sql.h"

struct pg_conn;

namespace tare::store {

class PgConnection final : public Connection {
 public:
  // Connects to `url` (postgresql://...); SqlError when the server cannot be reached.
  explicit PgConnection(const std::string& url);
  ~PgConnection() override;
  Dialect dialect() const override { return Dialect::kPostgres; }
  std::unique_ptr<StatementImpl> Prepare(const std::string& sql) override;
  void Exec(const std::string& sql) override;
  void CopyIn(const std::string& copy_sql, const std::string& data) override;
  bool Reconnect() override;
  pg_conn* handle() { return conn_; }

 private:
  pg_conn* conn_ = nullptr;
};

// COPY's text format: `v` with backslash, tab, newline and carriage return escaped (text that must
// be NUL-free UTF-8; SqlError otherwise), and bytes as a bytea hex literal.
void AppendCopyText(std::string& line, const std::string& v);
void AppendCopyBytes(std::string& line, const std::string& v);

// `sql` with its `?` parameters numbered $1, $2... (none inside quotes).
std::string NumberParameters(const std::string& sql);

}  // namespace tare::store
