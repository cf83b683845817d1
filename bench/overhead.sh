#!/usr/bin/env bash
# Per-sample harness overhead: tare run -- /bin/true vs hyperfine -N --runs N true, side by side,
# alternating, in one script. Reports the wall time per sample of each tool and their ratio.
# tare runs with its defaults: perf counters on, every sample committed to a real SQLite store.
#   bench/overhead.sh            # N=300 runs per tool, 5 alternating rounds
#   bench/overhead.sh --quick    # N=50, 2 rounds (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
N=300; ROUNDS=5
if [ "${1:-}" = "--quick" ]; then N=50; ROUNDS=2; fi
TARE=${TARE:-build/tare}
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
[ -x "$TARE" ] || { echo "$TARE is missing: run scripts/build.sh" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
tare_total=0; hf_total=0
for r in $(seq "$ROUNDS"); do
  t0=$(now); "$TARE" run -q --warmup 0 -n "$N" --store "$work/tare.db" -- /bin/true; t1=$(now)
  hyperfine -N --runs "$N" --warmup 0 --style none --export-json "$work/hf.json" true >/dev/null 2>&1; t2=$(now)
  tare_total=$((tare_total + t1 - t0)); hf_total=$((hf_total + t2 - t1))
done
samples=$((N * ROUNDS))
python3 - "$tare_total" "$hf_total" "$samples" <<'PY'
import sys
tare, hf, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
print(f"samples per tool: {n}")
print(f"tare run      : {tare / n / 1e6:.3f} ms per sample (perf counters + SQLite commit per sample)")
print(f"hyperfine -N  : {hf / n / 1e6:.3f} ms per sample")
print(f"ratio tare/hyperfine: {tare / hf:.2f}")
PY
