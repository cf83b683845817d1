#!/usr/bin/env bash
# Bulk ingest and the history query on both backends.
#  1. bench/history_bench writes 1,000 runs x 1,000 samples into a SQLite file (as `tare run` does:
#     one transaction per sample) and times the history query on it.
#  2. `tare merge` copies that store into a new SQLite file: samples/s into SQLite.
#  3. A throwaway PostgreSQL server (tests/e2e/store/with_postgres.sh): `tare push` copies the store
#     into it (COPY): samples/s into PostgreSQL; then the same history query, in-process
#     (history_bench with RUNS 0) and as the whole `tare history` command, median of 7.
#   bench/ingest.sh           # 1,000,000 samples
#   bench/ingest.sh --quick   # 100,000 samples
#   STORE=big.db bench/ingest.sh   # skips 1.: copies and times a store history_bench wrote before
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=1000
if [ "${1:-}" = "--quick" ]; then RUNS=100; fi
BENCH=$(realpath "${BENCH:-build/bench/history_bench}")
TARE=$(realpath "${TARE:-build/tare}")
[ -x "$BENCH" ] && [ -x "$TARE" ] || { echo "build first: scripts/build.sh (needs $BENCH and $TARE)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [ -n "${STORE:-}" ]; then
  cp "$STORE" "$work/h.db"
  "$BENCH" "$work/h.db" 0 0 | sed 's/^/sqlite /'
else
  "$BENCH" "$work/h.db" "$RUNS" 1000 | sed 's/^/sqlite /'
fi
samples=$(sqlite3 "$work/h.db" 'SELECT count(*) FROM samples')

timed() {  # timed LABEL COMMAND...: prints LABEL with seconds and samples/s
  local label=$1; shift
  local a b
  a=$(date +%s%N)
  "$@" >/dev/null
  b=$(date +%s%N)
  awk -v l="$label" -v ns=$((b - a)) -v n="$samples" 'BEGIN { printf "%s: %d samples in %.2f s = %.0f samples/s\n", l, n, ns / 1e9, n / (ns / 1e9) }'
}
timed "tare merge into a new SQLite file" "$TARE" merge "$work/merged.db" "$work/h.db"

export TARE BENCH WORK="$work" samples
export -f timed
tests/e2e/store/with_postgres.sh bash -c '
  set -euo pipefail
  timed "tare push into PostgreSQL (COPY)" "$TARE" push --to "$TARE_TEST_PG" --store "$WORK/h.db"
  "$BENCH" "$TARE_TEST_PG" 0 0 | sed "s/^/postgresql /"
  for limit in 200 100000; do
    for i in 1 2 3 4 5 6 7; do
      a=$(date +%s%N); "$TARE" history BM_Target --store "$TARE_TEST_PG" --limit $limit >/dev/null; b=$(date +%s%N)
      echo $(( (b - a) / 1000 ))
    done | sort -n | sed -n 4p | awk -v l=$limit "{ printf \"postgresql: tare history BM_Target --limit %s: %.1f ms whole command (median of 7)\n\", l, \$1 / 1000 }"
  done
'
