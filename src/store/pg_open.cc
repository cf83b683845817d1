// Opening a PostgreSQL store: postgresql://[user@][host][:port]/database[?param=value...] (libpq's
// connection URI; host may be a unix socket directory: postgresql:///tare?host=/run/postgresql).
#include <fmt/format.h>

#include "base/redact.h"
#include "internal/pg_connection.h"
#include "internal/sql_store.h"

namespace tare::store {

StatusOr<std::unique_ptr<Store>> OpenPostgres(const std::string& url) {
  const std::string name = PrintableLocation(url);
  std::unique_ptr<PgConnection> conn;
  try {
    conn = std::make_unique<PgConnection>(url);
    // Statements of one store call are short; a lock held by a crashed client must not hang a run.
    conn->Exec("SET lock_timeout = '60s'; SET client_min_messages = warning");
  } catch (const std::exception& e) {
    return Status::InvalidArgument(
        fmt::format("cannot connect to the store '{}': {}; check the server is running and the URL "
                    "(postgresql://USER@HOST:PORT/DATABASE, or ?host=/socket/dir) in --store or $TARE_STORE",
                    name, RedactSecrets(e.what())));
  }
  auto store = std::make_unique<SqlStore>(name, std::move(conn));
  TARE_RETURN_IF_ERROR(store->Migrate());
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace tare::store
