#!/usr/bin/env bash
# Simulation cost per sample: `tare run --instrument sim` vs bare `valgrind --tool=callgrind` with
# the same flags on the same benchmark, alternating, in one script; plus the Ir spread over
# tare's reruns (must be 0: the same binary gives the same counts).
#   bench/sim_overhead.sh           # 10 samples per tool, 3 alternating rounds
#   bench/sim_overhead.sh --quick   # 3 samples, 1 round (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
N=10; ROUNDS=3
if [ "${1:-}" = "--quick" ]; then N=3; ROUNDS=1; fi
BUILD=${BUILD_DIR:-build}
TARE=$BUILD/tare
BIN=$BUILD/examples/tare_basic/tare_basic
BENCH=sort_ints/512
ITERS=10
[ -x "$TARE" ] && [ -x "$BIN" ] || { echo "build first: scripts/build.sh" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
tare_ns=0; bare_ns=0
for r in $(seq "$ROUNDS"); do
  t0=$(now)
  "$TARE" run -q -i sim -n "$N" --iterations "$ITERS" --filter "^${BENCH}\$" --store "$work/t.db" \
    --json "$work/r$r.json" "$BIN"
  t1=$(now)
  for i in $(seq "$N"); do
    env TARE_CHILD=1 TARE_PROTOCOL=1 TARE_MODE=measure TARE_INSTRUMENT=sim TARE_BENCH="$BENCH" \
      TARE_ITERS=$ITERS TARE_RESULT_FD=3 LD_BIND_NOW=1 \
      setarch "$(uname -m)" -R valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 \
      --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec --instr-atstart=no \
      --dump-instr=no --callgrind-out-file="$work/bare.%p" --log-file="$work/bare.log" \
      "$BIN" 3>/dev/null >/dev/null 2>&1
  done
  t2=$(now)
  tare_ns=$((tare_ns + t1 - t0)); bare_ns=$((bare_ns + t2 - t1))
done
python3 - "$tare_ns" "$bare_ns" "$((N * ROUNDS))" "$work" "$BENCH" <<'PY'
import glob, json, sys
tare, bare, n, work, bench = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
irs = []
for f in sorted(glob.glob(work + "/r*.json")):
    for b in json.load(open(f))["benchmarks"]:
        irs += [s["values"]["sim.Ir"] for s in b["samples"] if s["outcome"] == "ok"]
spread = (max(irs) - min(irs)) / min(irs) * 100 if irs else float("nan")
print(f"benchmark: {bench}, samples per tool: {n}")
print(f"tare run --instrument sim : {tare / n / 1e6:.1f} ms per sample (incl. tare start-up, store)")
print(f"bare valgrind callgrind   : {bare / n / 1e6:.1f} ms per sample")
print(f"tare overhead over bare valgrind: {(tare / bare - 1) * 100:+.1f}%")
print(f"sim.Ir over {len(irs)} tare samples: min {min(irs):.3f} max {max(irs):.3f} spread {spread:.3f}%")
PY
