#!/usr/bin/env bash
# with_postgres.sh COMMAND...: runs COMMAND against a throwaway PostgreSQL cluster, then stops it.
#
# The cluster lives in a fresh temporary directory, listens only on a unix socket there (no TCP
# port), and belongs to an unprivileged user: initdb refuses to run as root, and the tests run as
# root in CI, so as root the server runs as `postgres` (Debian's postgresql package creates it),
# else as the calling user. COMMAND sees TARE_TEST_PG (a postgresql:// URL of an empty database
# `tare` that root may use), TARE_TEST_PG_DIR (the cluster directory) and TARE_TEST_PG_CTL (a
# script taking stop|start|restart, for tests of a server that goes away mid-run).
#
# Exit status: COMMAND's; 77 (ctest's "skipped") when no PostgreSQL server binaries are installed
# (scripts/deps.sh installs Debian's postgresql).
set -euo pipefail

bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bin="$d"
done
if [ -z "$bin" ]; then
  echo "with_postgres.sh: no PostgreSQL server (initdb) under /usr/lib/postgresql/*/bin; install it with scripts/deps.sh" >&2
  exit 77
fi

dir="$(mktemp -d /tmp/tare-pg.XXXXXX)"
chmod 755 "$dir"
as_server=()
db_user="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "with_postgres.sh: running as root and there is no 'postgres' user to run the server as; install Debian's postgresql package" >&2
    exit 77
  fi
  chown postgres "$dir"
  as_server=(runuser -u postgres --)
  db_user=root
fi

cleanup() {
  "${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_server[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}
opts="-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off -c max_connections=50"
cat >"$dir/ctl" <<CTL
#!/usr/bin/env bash
# stop | start | restart the throwaway cluster
cd /
${as_server[*]} "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$opts" -w -m fast "\$1" >/dev/null
CTL
chmod 755 "$dir/ctl"
"$dir/ctl" start
"${as_server[@]}" "$bin/psql" -h "$dir" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE $db_user LOGIN SUPERUSER" -c "CREATE DATABASE tare OWNER $db_user" 2>/dev/null ||
  "${as_server[@]}" "$bin/psql" -h "$dir" -U postgres -d postgres -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE tare OWNER $db_user"

export TARE_TEST_PG="postgresql:///tare?host=$dir&user=$db_user"
export TARE_TEST_PG_DIR="$dir"
export TARE_TEST_PG_CTL="$dir/ctl"
status=0
"$@" || status=$?
exit "$status"
