// internal/sql.h over libpq. Parameters go as text (binary for blobs) and results come back as
// text, which PostgreSQL renders exactly for integers and, since version 12, as the shortest text
// that reads back to the same double.
#include "internal/pg_connection.h"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/shared_library.h"
#include "base/terminal_text.h"

namespace tare::store {
namespace {

// libpq, opened at the first PostgreSQL connection (base/shared_library.h: linked, it and what it
// brings cost every tare start ~10 ms, SQLite stores included). Every function this file calls is
// in the table, typed from libpq-fe.h.
#define TARE_LIBPQ_FUNCTIONS(X) \
  X(PQclear) \
  X(PQconnectdb) \
  X(PQerrorMessage) \
  X(PQexec) \
  X(PQexecParams) \
  X(PQexecPrepared) \
  X(PQfinish) \
  X(PQfreemem) \
  X(PQgetResult) \
  X(PQgetisnull) \
  X(PQgetlength) \
  X(PQgetvalue) \
  X(PQntuples) \
  X(PQprepare) \
  X(PQputCopyData) \
  X(PQputCopyEnd) \
  X(PQreset) \
  X(PQresultErrorField) \
  X(PQresultErrorMessage) \
  X(PQresultStatus) \
  X(PQsetNoticeProcessor) \
  X(PQstatus) \
  X(PQunescapeBytea)

struct Libpq {
#define TARE_LIBPQ_SLOT(name) decltype(&::name) name = nullptr;
  TARE_LIBPQ_FUNCTIONS(TARE_LIBPQ_SLOT)
#undef TARE_LIBPQ_SLOT
};

// Loads libpq once; a SqlError (not a lost connection) that says what to install when it cannot.
const Libpq& Pq() {
  static const Libpq* const loaded = []() -> const Libpq* {
    static Libpq table;
    const Status s = LoadSharedLibrary({"libpq.so.5", "libpq.so"}, "libpq5", "PostgreSQL stores",
                                       {
#define TARE_LIBPQ_SYMBOL(name) {#name, reinterpret_cast<void**>(&table.name)},
                                           TARE_LIBPQ_FUNCTIONS(TARE_LIBPQ_SYMBOL)
#undef TARE_LIBPQ_SYMBOL
                                       });
    if (!s.ok()) throw SqlError(s.message(), false);
    return &table;
  }();
  return *loaded;
}

constexpr Oid kByteaOid = 17;

// libpq sends text parameters NUL-terminated, and the server refuses invalid UTF-8: either would
// lose or garble the value, so it is refused here, loudly, instead.
bool IsUtf8(const std::string& v) {
  // nlohmann's serializer checks UTF-8 strictly (RFC 3629) and throws on the first bad byte.
  try {
    (void)nlohmann::json(v).dump();
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

void RequireText(const std::string& v) {
  if (v.find('\0') != std::string::npos || !IsUtf8(v)) {
    throw SqlError(fmt::format("a text value is not NUL-free UTF-8 (it starts '{}'); PostgreSQL cannot keep it",
                               TerminalText(v.substr(0, 40))));
  }
}

bool ConnectionLost(PGconn* conn) { return conn == nullptr || Pq().PQstatus(conn) != CONNECTION_OK; }

// Throws SqlError for a failed result (connection_lost when the session is gone), clearing it.
void CheckResult(PGconn* conn, PGresult* result) {
  const ExecStatusType s = result == nullptr ? PGRES_FATAL_ERROR : Pq().PQresultStatus(result);
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_COPY_IN) return;
  const char* state = result == nullptr ? nullptr : Pq().PQresultErrorField(result, PG_DIAG_SQLSTATE);
  std::string message = result != nullptr ? Pq().PQresultErrorMessage(result) : Pq().PQerrorMessage(conn);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  const bool unique = state != nullptr && std::string(state) == "23505";
  // Class 08 (connection exception) and 57P01..03 (the server shutting down) mean the session is
  // gone; so does a connection libpq reports bad.
  const bool lost =
      ConnectionLost(conn) ||
      (state != nullptr && (std::string(state).rfind("08", 0) == 0 || std::string(state).rfind("57P0", 0) == 0));
  if (result != nullptr) Pq().PQclear(result);
  throw SqlError(message.empty() ? "the server closed the connection" : message, lost, unique);
}

void CheckAndClear(PGconn* conn, PGresult* result) {
  CheckResult(conn, result);
  Pq().PQclear(result);
}

class PgStatement final : public StatementImpl {
 public:
  PgStatement(PGconn* conn, std::string sql) : conn_(conn), sql_(NumberParameters(sql)) {}
  ~PgStatement() override { Clear(); }

  void BindInt(int i, int64_t v) override { Set(i, std::to_string(v), false); }
  void BindDouble(int i, double v) override { Set(i, fmt::format("{}", v), false); }
  void BindText(int i, const std::string& v) override {
    RequireText(v);
    Set(i, v, false);
  }
  void BindBytes(int i, const std::string& v) override { Set(i, v, true); }
  std::string Bytes(int c) override { return Blob(c); }
  void BindBlob(int i, const void* data, size_t size) override {
    Set(i, std::string(static_cast<const char*>(data), size), true);
  }
  void BindNull(int i) override {
    Grow(i);
    null_[i - 1] = true;
  }

  bool Step() override {
    if (result_ == nullptr) Execute();
    ++row_;
    return row_ < Pq().PQntuples(result_);
  }
  void Reset() override {
    Clear();
    row_ = -1;
  }
  bool IsNull(int c) override { return Pq().PQgetisnull(result_, row_, c) != 0; }
  int64_t Int(int c) override { return IsNull(c) ? 0 : std::strtoll(Pq().PQgetvalue(result_, row_, c), nullptr, 10); }
  double Double(int c) override { return IsNull(c) ? 0 : std::strtod(Pq().PQgetvalue(result_, row_, c), nullptr); }
  std::string Text(int c) override {
    return std::string(Pq().PQgetvalue(result_, row_, c), static_cast<size_t>(Pq().PQgetlength(result_, row_, c)));
  }
  std::string Blob(int c) override {
    size_t n = 0;
    unsigned char* bytes =
        Pq().PQunescapeBytea(reinterpret_cast<const unsigned char*>(Pq().PQgetvalue(result_, row_, c)), &n);
    if (bytes == nullptr) throw SqlError("reading a bytea value: out of memory");
    std::string out(reinterpret_cast<const char*>(bytes), n);
    Pq().PQfreemem(bytes);
    return out;
  }

 private:
  void Grow(int i) {
    if (static_cast<size_t>(i) > values_.size()) {
      values_.resize(i);
      null_.resize(i, true);
      binary_.resize(i, false);
    }
  }
  void Set(int i, std::string v, bool binary) {
    Grow(i);
    values_[i - 1] = std::move(v);
    null_[i - 1] = false;
    binary_[i - 1] = binary;
  }
  void Execute() {
    const int n = static_cast<int>(values_.size());
    std::vector<const char*> values(n);
    std::vector<int> lengths(n), formats(n);
    std::vector<Oid> types(n);
    for (int i = 0; i < n; ++i) {
      values[i] = null_[i] ? nullptr : values_[i].data();
      lengths[i] = static_cast<int>(values_[i].size());
      formats[i] = binary_[i] ? 1 : 0;
      types[i] = binary_[i] ? kByteaOid : 0;
    }
    Clear();
    // A statement run again (a cached insert, a query per run of a history) is prepared on the
    // server once, so it is not parsed and planned on every call; one run once is not, so
    // nothing is left behind in the session for it.
    if (executions_ == 1 && prepared_name_.empty()) {
      static int counter = 0;
      const std::string name = fmt::format("tare_{}", ++counter);
      CheckAndClear(conn_, Pq().PQprepare(conn_, name.c_str(), sql_.c_str(), n, types.data()));
      prepared_name_ = name;
    }
    PGresult* result =
        prepared_name_.empty()
            ? Pq().PQexecParams(conn_, sql_.c_str(), n, types.data(), values.data(), lengths.data(), formats.data(), 0)
            : Pq().PQexecPrepared(conn_, prepared_name_.c_str(), n, values.data(), lengths.data(), formats.data(), 0);
    CheckResult(conn_, result);  // clears a failed result before throwing
    result_ = result;
    row_ = -1;
    ++executions_;
  }
  void Clear() {
    if (result_ != nullptr) Pq().PQclear(result_);
    result_ = nullptr;
  }

  PGconn* conn_;
  std::string sql_;
  std::vector<std::string> values_;
  std::vector<bool> null_, binary_;
  PGresult* result_ = nullptr;
  int row_ = -1;
  int executions_ = 0;
  std::string prepared_name_;  // "" until run a second time
};

}  // namespace

std::string NumberParameters(const std::string& sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  char quote = 0;
  for (char c : sql) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      out += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += c;
    } else if (c == '?') {
      out += fmt::format("${}", ++n);
    } else {
      out += c;
    }
  }
  return out;
}

PgConnection::PgConnection(const std::string& url) {
  conn_ = Pq().PQconnectdb(url.c_str());
  if (ConnectionLost(conn_)) {
    std::string message = conn_ != nullptr ? Pq().PQerrorMessage(conn_) : "out of memory";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    throw SqlError(message, true);
  }
  // Notices (e.g. "relation already exists, skipping") are not the user's business.
  Pq().PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
}

PgConnection::~PgConnection() {
  ClearCache();
  if (conn_ != nullptr) Pq().PQfinish(conn_);
}

std::unique_ptr<StatementImpl> PgConnection::Prepare(const std::string& sql) {
  return std::make_unique<PgStatement>(conn_, sql);
}

void PgConnection::Exec(const std::string& sql) { CheckAndClear(conn_, Pq().PQexec(conn_, sql.c_str())); }

void PgConnection::CopyIn(const std::string& copy_sql, const std::string& data) {
  CheckAndClear(conn_, Pq().PQexec(conn_, copy_sql.c_str()));  // PGRES_COPY_IN
  // libpq takes the data in pieces; 1 MiB at a time keeps its buffer small.
  constexpr size_t kChunk = 1 << 20;
  for (size_t at = 0; at < data.size(); at += kChunk) {
    const size_t n = std::min(kChunk, data.size() - at);
    if (Pq().PQputCopyData(conn_, data.data() + at, static_cast<int>(n)) != 1) {
      throw SqlError(Pq().PQerrorMessage(conn_), ConnectionLost(conn_));
    }
  }
  if (Pq().PQputCopyEnd(conn_, nullptr) != 1) throw SqlError(Pq().PQerrorMessage(conn_), ConnectionLost(conn_));
  CheckAndClear(conn_, Pq().PQgetResult(conn_));
  // The COPY's result is followed by a null one.
  while (PGresult* r = Pq().PQgetResult(conn_)) Pq().PQclear(r);
}

void AppendCopyText(std::string& line, const std::string& v) {
  RequireText(v);
  for (char c : v) {
    switch (c) {
      case '\\':
        line += "\\\\";
        break;
      case '\t':
        line += "\\t";
        break;
      case '\n':
        line += "\\n";
        break;
      case '\r':
        line += "\\r";
        break;
      default:
        line += c;
    }
  }
}

void AppendCopyBytes(std::string& line, const std::string& v) {
  static constexpr char kHex[] = "0123456789abcdef";
  line += "\\\\x";  // COPY unescapes \\x to \x, bytea's hex format
  for (unsigned char c : v) {
    line += kHex[c >> 4];
    line += kHex[c & 15];
  }
}

bool PgConnection::Reconnect() {
  ClearCache();
  ForgetTransaction();
  Pq().PQreset(conn_);
  return !ConnectionLost(conn_);
}

}  // namespace tare::store
