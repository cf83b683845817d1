#!/usr/bin/env bash
# The time-based default plan (issue 21 §6) against hyperfine + Welch at equal time.
#
# For each campaign: `tare ab` at its defaults (no plan flags: looks at 20 pairs then doubling,
# the default budget of 30 s for the one cell) on examples/ab_knob, base against a head that does
# CHANGE more loop work (aa: a copy of base), timed; then hyperfine -N with base and head, given
# the same wall time (runs per command = tare's seconds / (2 x the mean time of one run, from a
# 5-run probe)), judged by Welch's t-test at alpha 0.05 as hyperfine's scripts/welch_ttest.py does.
# Campaigns alternate aa and the change, so both tools see the same host. The 1-minute load is
# printed for each campaign.
#
#   bench/default_plan.sh                      # 5 campaigns of aa and of plus1
#   bench/default_plan.sh --quick              # 2 of each
#   bench/default_plan.sh --campaigns 10 --change plus0_5 --work 12
#
# Needs build/tare, build/tare-spawn-helper, the ab_knob builds, hyperfine and /usr/bin/python3
# with scipy (python3-scipy).
set -euo pipefail
cd "$(dirname "$0")/.."
campaigns=5; change=plus1; work=12; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --campaigns) campaigns=$2; shift ;;
    --quick) campaigns=2 ;;
    --change) change=$2; shift ;;
    --work) work=$2; shift ;;
    --tare-args) read -r -a extra <<< "$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "default_plan.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
BUILD=${BUILD:-build}
knob="$BUILD/examples/ab_knob"
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
/usr/bin/python3 -c 'import scipy' 2>/dev/null || { echo "scipy is missing: apt-get install python3-scipy" >&2; exit 2; }
for f in "$BUILD/tare" "$BUILD/tare-spawn-helper" "$knob/ab_knob_base" "$knob/ab_knob_$change"; do
  [ -x "$f" ] || { echo "$f is missing: cmake --build $BUILD --target tare tare-spawn-helper ab_knob_base ab_knob_$change" >&2; exit 2; }
done
out=$(mktemp -d "${TMPDIR:-/tmp}/tare-default-plan.XXXXXX")
cp "$BUILD/tare" "$BUILD/tare-spawn-helper" "$out/"
for cell in aa "$change"; do
  mkdir -p "$out/arms/$cell"
  cp "$knob/ab_knob_base" "$out/arms/$cell/base"
  if [ "$cell" = aa ]; then cp "$knob/ab_knob_base" "$out/arms/$cell/head"; else cp "$knob/ab_knob_$change" "$out/arms/$cell/head"; fi
done
echo "campaign cell load tare_verdict tare_s tare_pairs hyperfine_runs hyperfine_s welch_p hyperfine_verdict"
for i in $(seq 1 "$campaigns"); do
  for cell in aa "$change"; do
    a="$out/arms/$cell"
    store="$out/s-$i-$cell/tare.db"
    mkdir -p "$out/s-$i-$cell"  # tare creates a store only in a directory that exists
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    "$out/tare" ab --base "$a/base" --head "$a/head" --store "$store" --json "$out/r-$i-$cell.json" --quiet \
      --inconclusive-ok --no-cross-check "${extra[@]}" -- --work "$work" >/dev/null 2>"$out/err-$i-$cell" || true
    t1=$(date +%s.%N)
    tare_s=$(echo "$t1 - $t0" | bc)
    read -r verdict pairs < <(/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); c=j["comparisons"][0]; print(c["verdict"], c["metrics"][0]["pairs"])' "$out/r-$i-$cell.json")
    # hyperfine at equal time: the probe's mean run time sets the runs per command.
    hyperfine -N --runs 5 --export-json "$out/probe.json" "$a/base --work $work" >/dev/null 2>&1
    runs=$(/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["results"][0]["mean"]; print(max(2, int(float(sys.argv[2]) / (2 * m))))' "$out/probe.json" "$tare_s")
    h0=$(date +%s.%N)
    hyperfine -N --runs "$runs" --export-json "$out/h-$i-$cell.json" "$a/base --work $work" "$a/head --work $work" >/dev/null 2>&1
    h1=$(date +%s.%N)
    read -r p hv < <(/usr/bin/python3 -c '
import json, sys
from scipy import stats
r = json.load(open(sys.argv[1]))["results"]
t, p = stats.ttest_ind(r[0]["times"], r[1]["times"], equal_var=False)
print(f"{p:.4f}", ("FAIL" if sum(r[1]["times"]) > sum(r[0]["times"]) else "FASTER") if p < 0.05 else "same")' "$out/h-$i-$cell.json")
    printf "%s %s %s %s %.1f %s %s %.1f %s %s\n" "$i" "$cell" "$load" "$verdict" "$tare_s" "$pairs" "$runs" "$(echo "$h1 - $h0" | bc)" "$p" "$hv"
  done
done
echo "raw results: $out"
