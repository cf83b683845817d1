#!/usr/bin/env bash
# The history query on a big store: bench/history_bench writes RUNS runs x 1,000 samples (4
# benchmarks each, so 1/4 of them are BM_Target's) through tare's Store API into a new SQLite file,
# then times `tare history`'s query and its medians + change points, in-process, median of 7.
# Also times the whole `tare history BM_Target` command (process start, store open, query, print).
#   bench/history.sh           # 1,000 runs: 1,000,000 samples
#   bench/history.sh --quick   # 100 runs: 100,000 samples
#   STORE=big.db bench/history.sh   # times a store history_bench wrote before (an older one is
#                                   # migrated first: history_bench prints how long that took)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=1000
if [ "${1:-}" = "--quick" ]; then RUNS=100; fi
BENCH=${BENCH:-build/bench/history_bench}
TARE=${TARE:-build/tare}
[ -x "$BENCH" ] && [ -x "$TARE" ] || { echo "build first: scripts/build.sh (needs $BENCH and $TARE)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
db="$work/h.db"
if [ -n "${STORE:-}" ]; then
  db=$STORE
  "$BENCH" "$db" 0 0
else
  "$BENCH" "$db" "$RUNS" 1000
fi
python3 - "$TARE" "$db" <<'PY'
import statistics, subprocess, sys, time
tare, db = sys.argv[1], sys.argv[2]
for limit in ("200", "100000"):
    times = []
    for _ in range(7):
        t = time.perf_counter()
        subprocess.run([tare, "history", "BM_Target", "--store", db, "--limit", limit],
                       check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - t) * 1000)
    print(f"tare history BM_Target --limit {limit}: {statistics.median(times):.1f} ms whole command (median of 7)")
PY
