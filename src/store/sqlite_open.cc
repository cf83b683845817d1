// Opening a SQLite store file: creating it, refusing files tare must not touch, WAL mode, the
// reserve kept for finishing a run on a full disk, and read-only stores.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "base/shell_quote.h"
#include "internal/sql_store.h"
#include "internal/sqlite_connection.h"

namespace tare::store {
namespace {

// Every committed sample appends the pages it changed to the WAL (about 20 KiB: the sample, its
// values, their indexes, the run's summary), and SQLite copies the WAL back into the database only
// every 1000 pages, 4 MiB. On a small disk the WAL, not the data, fills it: a 2 MiB disk was "full"
// with 188 KB stored (issue 27). With less than kSmallDiskBytes free where the store is, the WAL
// is checkpointed every 64 pages (256 KiB) instead: the data then fills the disk. Elsewhere the
// default stands: a checkpoint writes and syncs the database, a cost per sample (bench/README.md).
constexpr uint64_t kSmallDiskBytes = 256ull << 20;
void KeepTheWalSmallOnASmallDisk(SQLite::Database& db, const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  struct statvfs vfs {};
  if (statvfs(dir.empty() ? "." : dir.c_str(), &vfs) != 0) return;
  if (static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize < kSmallDiskBytes) db.exec("PRAGMA wal_autocheckpoint=64");
}

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

// A run stopped by a full disk must still be finished (its status written), and that write needs
// a few pages of WAL. This much is kept allocated in PATH-reserve and freed only for that write
// (SqliteConnection::FreeSpace); the next open that has room allocates it again.
constexpr off_t kReserveBytes = 256 * 1024;

void KeepReserve(const std::string& reserve) {
  const int fd = open(reserve.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return;  // already there (or the directory refuses): the reserve is a nicety
  // Real blocks, not a hole: a sparse file would free nothing.
  const bool kept = posix_fallocate(fd, 0, kReserveBytes) == 0;
  close(fd);
  if (!kept) unlink(reserve.c_str());
}

// Whether tare may write the store file at `path` (which exists) and create its -wal and -shm
// next to it. access(2) answers for the real user and a read-only mount (EROFS) alike.
bool Writable(const std::string& path) {
  // The directory as a path, not a string: g++ 12 warns (-Wrestrict, a false positive) on
  // assigning "." to an empty std::string here.
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = std::filesystem::path(".");
  return access(path.c_str(), W_OK) == 0 && access(dir.c_str(), W_OK) == 0;
}

// `path` as an SQLite URI filename (https://sqlite.org/uri.html): '%', '?' and '#' escaped.
std::string UriPath(const std::string& path) {
  std::string out = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

// A store tare may not write, opened for reading. A WAL store whose -shm is gone (tare removes it
// on its last close) cannot be opened read-only in a directory where it cannot be created; it is
// then opened immutable: nothing can write it there anyway.
StatusOr<std::unique_ptr<Store>> OpenReadOnly(const std::string& path) {
  auto open = [&](bool immutable) -> StatusOr<std::unique_ptr<SQLite::Database>> {
    auto db = immutable ? std::make_unique<SQLite::Database>(UriPath(path) + "?immutable=1",
                                                             SQLite::OPEN_READONLY | SQLite::OPEN_URI)
                        : std::make_unique<SQLite::Database>(path, SQLite::OPEN_READONLY);
    db->setBusyTimeout(kBusyTimeoutMs);
    SQLite::Statement state(*db, "SELECT user_version, (SELECT count(*) FROM sqlite_master) FROM pragma_user_version");
    state.executeStep();
    const int version = state.getColumn(0).getInt();
    const int tables = state.getColumn(1).getInt();
    state.reset();
    if (version == 0) return NotATareStore(path);
    if (version > kSchemaVersion) return NewerSchema(path, version);
    if (version < kSchemaVersion || tables == 0) {
      return Status::FailedPrecondition(
          fmt::format("the store '{}' is read-only and from an older tare (schema version {}, this tare reads "
                      "{}); open it once where tare may write it (`tare runs --store PATH` migrates it), then "
                      "read it here",
                      path, version, kSchemaVersion));
    }
    db->exec("PRAGMA foreign_keys=ON");
    return db;
  };
  StatusOr<std::unique_ptr<SQLite::Database>> db = Status::Ok();
  try {
    try {
      db = open(false);
    } catch (const SQLite::Exception& e) {
      // SQLITE_CANTOPEN, or SQLITE_READONLY_CANTINIT: no -shm, and none may be created.
      const int code = e.getErrorCode() & 0xff;
      if (code != SQLITE_CANTOPEN && code != SQLITE_READONLY) throw;
      db = open(true);
    }
  } catch (const std::exception& e) {
    return Status::InvalidArgument(
        fmt::format("cannot open the read-only store '{}': {}; check the path is a tare store", path, e.what()));
  }
  if (!db.ok()) return db.status();
  return std::unique_ptr<Store>(
      std::make_unique<SqlStore>(path, std::make_unique<SqliteConnection>(std::move(*db), ""), /*read_only=*/true));
}

// quick_check reads the whole file: ~22 ms for a 3.9 MB store of 9,000 samples on the VM of
// bench/README.md, 0.4-4.4 s for 243 MiB (docs/store.md) — on every run. A file exactly as tare's
// own last clean close left it, in this boot, with no WAL beside it, was checked when it was
// opened and then only written by SQLite through a close that finished: it is not checked again.
// A reboot (a power loss: a disk that lied about fsync), a copy, a hand edit (the change time moves
// whatever the modification time says) or a writer that crashed (its WAL is left) all fail the
// comparison, and the check runs.
std::string BootId() {
  std::string id;
  const int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return id;
  char buf[64];
  const ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  for (ssize_t i = 0; i < n && buf[i] != '\n'; ++i) id += buf[i];
  return id;
}

bool WalExists(const std::string& path) {
  struct stat st {};
  return ::stat((path + "-wal").c_str(), &st) == 0;
}

}  // namespace

std::string CleanCloseStamp(const std::string& path) {
  const std::string boot = BootId();
  struct stat st {};
  if (boot.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  return fmt::format("tare-clean-close-v1 {} {} {} {} {}.{:09} {}.{:09}\n", boot, st.st_dev, st.st_ino, st.st_size,
                     st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

void StampCleanClose(const std::string& path, const std::string& reserve_path) {
  if (WalExists(path)) return;  // another connection is open, or the checkpoint failed
  const std::string stamp = CleanCloseStamp(path);
  if (stamp.empty()) return;
  // Its blocks are allocated (KeepReserve): writing the first bytes takes no space.
  const int fd = open(reserve_path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  (void)!pwrite(fd, stamp.data(), stamp.size(), 0);
  close(fd);
}

bool UnchangedSinceCleanClose(const std::string& path, const std::string& reserve_path) {
  if (WalExists(path)) return false;
  const std::string stamp = CleanCloseStamp(path);
  if (stamp.empty()) return false;
  const int fd = open(reserve_path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  std::string kept(stamp.size(), '\0');
  const ssize_t n = pread(fd, kept.data(), kept.size(), 0);
  close(fd);
  return n == static_cast<ssize_t>(stamp.size()) && kept == stamp;
}

namespace {

// A store that fails SQLite's quick_check (a torn write on a filesystem that lied about fsync, a
// copy taken mid-write, bytes changed by hand) would take new runs into a file whose damage can
// spread and lose them (issue 27, item 13). Checked before anything is written; nothing is changed.
// quick_check is integrity_check without the index-content cross-checks: O(N) in the pages read,
// reading each page once (sqlite.org/pragma.html#pragma_quick_check).
Status Damaged(const std::string& path, const std::string& found) {
  return Status::DataLoss(
      fmt::format("the store '{}' is damaged (SQLite's quick_check: {}); nothing was written to it. Keep a copy, "
                  "then recover what it holds into a new file: `sqlite3 '{}' .recover | sqlite3 repaired.db`, "
                  "check it with `tare runs --store repaired.db`, and use that store (or start a new one with "
                  "--store PATH)",
                  path, found.empty() ? "no answer" : found, path));
}

Status CheckIntact(SQLite::Database& db, const std::string& path) {
  SQLite::Statement check(db, "PRAGMA quick_check(3)");
  std::string found;
  while (check.executeStep()) {  // a page it cannot read at all throws SQLITE_CORRUPT: the caller says Damaged
    const std::string line = check.getColumn(0).getString();
    if (line == "ok") return Status::Ok();
    found += (found.empty() ? "" : "; ") + line;
  }
  return Damaged(path, found);
}

// What a path that exists but is not a regular file is, for the message; "" for a regular file or
// none. SQLite would open /dev/null and leave a /dev/null-journal beside it (issue 27, item 19).
std::string NotAFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return "";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISFIFO(st.st_mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

Status RequireDirectory(const std::string& path, const std::filesystem::path& parent) {
  return Status::InvalidArgument(
      fmt::format("the directory '{}' of the store '{}' does not exist; to start a new store there, create it first "
                  "(mkdir -p {}), or check the path given with --store (or $TARE_STORE) for a typo",
                  parent.string(), path, ShellQuote(parent.string())));
}

}  // namespace

// A new store needs a directory that exists: a typo in it (`--store missing-dir/x.db`) must not
// start a new history in silence (issue 44, item 4). The one directory tare creates is a missing
// `.tare` whose own directory exists: the default store's, .tare/tare.db.
Status CheckStoreDirectory(const std::string& location) {
  if (IsStoreUrl(location)) return Status::Ok();
  std::error_code ec;
  const auto parent = std::filesystem::path(location).parent_path();
  if (parent.empty() || std::filesystem::exists(parent, ec)) return Status::Ok();
  const auto above = parent.parent_path();
  if (parent.filename() == ".tare" && (above.empty() || std::filesystem::is_directory(above, ec))) return Status::Ok();
  return RequireDirectory(location, parent);
}

StatusOr<std::unique_ptr<Store>> OpenSqlite(const std::string& path, bool for_reading) {
  std::error_code ec;
  if (const std::string what = NotAFile(path); !what.empty()) {
    return Status::InvalidArgument(
        fmt::format("cannot open the store '{}': it is {}, not a file; give the path of a store file (created if "
                    "missing) with --store PATH",
                    path, what));
  }
  if (std::filesystem::is_regular_file(path, ec) && !Writable(path)) {
    if (for_reading) return OpenReadOnly(path);
    return Status::FailedPrecondition(
        fmt::format("the store '{}' is read-only (its file mode, directory or mount); the commands that only "
                    "read it (runs, export, compare, history, variance, report, spread, shards, bundle) can use it; "
                    "to store, make it writable or choose another with --store PATH",
                    path));
  }
  TARE_RETURN_IF_ERROR(CheckStoreDirectory(path));
  if (const auto parent = std::filesystem::path(path).parent_path();
      !parent.empty() && !std::filesystem::exists(parent, ec)) {
    if (for_reading) return RequireDirectory(path, parent);
    std::filesystem::create_directory(parent, ec);  // the default store's .tare (CheckStoreDirectory)
    if (ec) {
      return Status::InvalidArgument(
          fmt::format("cannot create the store directory '{}': {}; choose another with --store PATH", parent.string(),
                      ec.message()));
    }
  }
  // Before SQLite opens it: reading a WAL store creates its -wal file.
  const bool unchanged = !for_reading && UnchangedSinceCleanClose(path, path + "-reserve");
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
    if (!for_reading && tables > 0 && !unchanged) {
      TARE_RETURN_IF_ERROR(CheckIntact(*db, path));
    }
    SwitchToWal(*db);
    db->exec("PRAGMA synchronous=NORMAL");
    db->exec("PRAGMA temp_store=MEMORY");
    db->exec("PRAGMA foreign_keys=ON");
    if (!for_reading) KeepTheWalSmallOnASmallDisk(*db, path);
  } catch (const SQLite::Exception& e) {
    if ((e.getErrorCode() & 0xff) == SQLITE_CORRUPT) return Damaged(path, e.what());
    return Status::InvalidArgument(
        fmt::format("cannot open the store '{}': {}; check the path is a writable tare store or choose "
                    "another with --store PATH",
                    path, e.what()));
  } catch (const std::exception& e) {
    return Status::InvalidArgument(
        fmt::format("cannot open the store '{}': {}; check the path is a writable tare store or choose "
                    "another with --store PATH",
                    path, e.what()));
  }
  auto store = std::make_unique<SqlStore>(path, std::make_unique<SqliteConnection>(std::move(db), path + "-reserve"));
  TARE_RETURN_IF_ERROR(store->Migrate());
  // Only a store opened to write needs room to finish a run; a reading command leaves no
  // PATH-reserve behind (a `tare runs` on a damaged store left one: issue 27, item 19).
  if (!for_reading) KeepReserve(path + "-reserve");
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace tare::store
