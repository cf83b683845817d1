#!/usr/bin/env bash
# +1% on a binary built on tare's library (issue 21 §6: "within 5 s"), at tare ab's defaults and
# with a tighter budget.
#
# examples/gbench_knob's source compiled against tare/gbench_compat.hpp: gbench_knob_compat_base,
# and gbench_knob_compat_plus1, whose BM_Knob does 1% more loop iterations (the same machine code:
# the knob is a data word). tare owns the measurement window there: one iteration count, calibrated
# on base and fixed for every arm, samples of tens of milliseconds. For each campaign: `tare ab
# --filter '^BM_Knob$'` of base against a copy of base (aa) and against plus1, timed from the
# command's start to its exit (arm copies, calibration, the lock, every look). Campaigns alternate
# aa and the change; the 1-minute load is printed for each.
#
#   bench/library_plan.sh                                  # 10 campaigns of each, defaults
#   bench/library_plan.sh --quick                          # 2 campaigns of each
#   bench/library_plan.sh --campaigns 5 --tare-args "--budget 3s"
#
# Needs build/tare, build/tare-spawn-helper and the two builds
# (cmake --build build --target tare gbench_knob_compat_base gbench_knob_compat_plus1).
set -euo pipefail
cd "$(dirname "$0")/.."
campaigns=10; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --campaigns) campaigns=$2; shift ;;
    --quick) campaigns=2 ;;
    --tare-args) read -r -a extra <<< "$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "library_plan.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
BUILD=${BUILD:-build}
knob="$BUILD/examples/gbench_knob"
for f in "$BUILD/tare" "$BUILD/tare-spawn-helper" "$knob/gbench_knob_compat_base" "$knob/gbench_knob_compat_plus1"; do
  [ -x "$f" ] || { echo "$f is missing: cmake --build $BUILD --target tare gbench_knob_compat_base gbench_knob_compat_plus1" >&2; exit 2; }
done
out=$(mktemp -d "${TMPDIR:-/tmp}/tare-library-plan.XXXXXX")
cp "$BUILD/tare" "$BUILD/tare-spawn-helper" "$out/"
for cell in aa plus1; do
  mkdir -p "$out/arms/$cell"
  cp "$knob/gbench_knob_compat_base" "$out/arms/$cell/base"
  if [ "$cell" = aa ]; then cp "$knob/gbench_knob_compat_base" "$out/arms/$cell/head"; else cp "$knob/gbench_knob_compat_plus1" "$out/arms/$cell/head"; fi
done
echo "campaign cell load verdict seconds pairs change interval"
for i in $(seq 1 "$campaigns"); do
  for cell in aa plus1; do
    a="$out/arms/$cell"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    mkdir -p "$out/s-$i-$cell"  # tare creates a store only in a directory that exists
    "$out/tare" ab --base "$a/base" --head "$a/head" --filter '^BM_Knob$' --store "$out/s-$i-$cell/tare.db" \
      --json "$out/r-$i-$cell.json" --quiet --inconclusive-ok --no-cross-check "${extra[@]}" >/dev/null 2>"$out/err-$i-$cell" || true
    t1=$(date +%s.%N)
    /usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
c = j["comparisons"][0]; m = c["metrics"][0]; ch = m["change"]
pct = lambda x: "n/a" if x is None else f"{100 * x:+.2f}%"
print(sys.argv[2], sys.argv[3], sys.argv[4], c["verdict"], f"{float(sys.argv[5]):.1f}", m["pairs"], pct(ch["estimate"]),
      "[" + pct(ch["lo"]) + ", " + pct(ch["hi"]) + "]")' "$out/r-$i-$cell.json" "$i" "$cell" "$load" "$(echo "$t1 - $t0" | bc)"
  done
done
echo "raw results: $out"
