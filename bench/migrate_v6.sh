#!/usr/bin/env bash
# A big store from schema version 5 to 6 (per-run summaries), and the history before and after, on
# both backends. V5_STORE is a SQLite store written by a tare before version 6 (e.g. that tare's
# bench/history_bench V5_STORE 1000 1000); OLD_TARE and OLD_BENCH are that tare's binaries.
#  1. SQLite: this tare's history_bench opens a copy (migrating it; it prints how long that took)
#     and times the history query.
#  2. PostgreSQL (tests/e2e/store/with_postgres.sh): OLD_TARE pushes V5_STORE into a throwaway
#     server; OLD_BENCH and OLD_TARE time the history there; this history_bench opens the database
#     (migrating it) and times it again, then this tare's whole `tare history` command.
#   OLD_TARE=old/tare OLD_BENCH=old/bench/history_bench bench/migrate_v6.sh V5_STORE
set -euo pipefail
cd "$(dirname "$0")/.."
V5_STORE=$(realpath "$1")
BENCH=$(realpath "${BENCH:-build/bench/history_bench}")
TARE=$(realpath "${TARE:-build/tare}")
OLD_TARE=$(realpath "$OLD_TARE")
OLD_BENCH=$(realpath "$OLD_BENCH")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$V5_STORE" "$work/v5.db"
[ "$(sqlite3 "$work/v5.db" 'PRAGMA user_version')" = 5 ] || { echo "$1 is not a version 5 store" >&2; exit 2; }
"$BENCH" "$work/v5.db" 0 0 | sed 's/^/sqlite v6 (migrated) /'
cp "$V5_STORE" "$work/v5.db"
export TARE BENCH OLD_TARE OLD_BENCH WORK="$work"
tests/e2e/store/with_postgres.sh bash -c '
  set -euo pipefail
  whole() {  # whole LABEL TARE: the whole tare history command, median of 7
    for limit in 200 100000; do
      for i in 1 2 3 4 5 6 7; do
        a=$(date +%s%N); "$2" history BM_Target --store "$TARE_TEST_PG" --limit $limit >/dev/null; b=$(date +%s%N)
        echo $(( (b - a) / 1000 ))
      done | sort -n | sed -n 4p | awk -v l="$1" -v n=$limit "{ printf \"%s: tare history BM_Target --limit %s: %.1f ms whole command (median of 7)\n\", l, n, \$1 / 1000 }"
    done
  }
  a=$(date +%s%N); "$OLD_TARE" push --to "$TARE_TEST_PG" --store "$WORK/v5.db" >/dev/null; b=$(date +%s%N)
  echo "postgresql v5: push $(( (b - a) / 1000000 )) ms"
  "$OLD_BENCH" "$TARE_TEST_PG" 0 0 | sed "s/^/postgresql v5 /"
  whole "postgresql v5" "$OLD_TARE"
  "$BENCH" "$TARE_TEST_PG" 0 0 | sed "s/^/postgresql v6 (migrated) /"
  whole "postgresql v6" "$TARE"
'
