#!/usr/bin/env bash
# Sensitivity: how often does each tool catch an injected slowdown, and how often does it flag a
# change that is not there? `tare ab` (default settings, null arm, cap = R pairs per arm) against
# what users have today: hyperfine's sequential runs (`hyperfine -N --runs R`, base then head)
# judged by Welch's t-test at alpha = 0.05, as hyperfine's scripts/welch_ttest.py does.
#
# Workload: examples/ab_knob (a serial xorshift loop, CPU-bound), `--work W` million iterations
# (W = 12: about 21 ms of CPU per process here). Heads: ab_knob_plus0_5/plus1/plus2/plus5 (+0.5,
# +1, +2, +5% loop iterations; process start-up is not scaled, so the whole-process change is a
# little smaller: the analysis reports the change each tool measured). A/A: base against a copy.
#
# Every campaign is a fresh tare store or a fresh hyperfine run. Campaigns are interleaved: round
# i runs every (R, cell) once, cells rotated by i, and the tool that goes first alternates, so both
# tools see the same host conditions. The 1-minute load average is recorded for every campaign.
#
#   bench/sensitivity.sh                 # full: R = 40 and 120, 20 campaigns per (R, cell, tool)
#   bench/sensitivity.sh --quick         # R = 40, 3 campaigns per cell: a few minutes (CI)
#   bench/sensitivity.sh --campaigns 10 --runs "120" --work 12 --out /tmp/sens
#   bench/sensitivity.sh --variant est="--noise-floor null-estimate-v1"   # also a tare setting
#   bench/sensitivity.sh --tools "" --variant wall="--metric wall_ns" --runs 120   # that alone
#   bench/sensitivity.sh --cells "aa plus1"                     # only A/A and +1%
#   bench/sensitivity_analyze.py OUT     # re-read a finished (or interrupted) run's directory
#
# Needs: build/tare, build/tare-spawn-helper and the ab_knob builds (cmake --build build --target
# tare tare-spawn-helper ab_knob_base ab_knob_plus0_5 ab_knob_plus1 ab_knob_plus2 ab_knob_plus5),
# hyperfine, and /usr/bin/python3 with scipy (Debian: python3-scipy) for the analysis.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

campaigns=20; runs="40 120"; work=12; out=""; variants=(); tools=(tare hyperfine)
cells=(aa plus0_5 plus1 plus2 plus5)   # "aa" is A/A: base against a copy of itself
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) campaigns=3; runs="40" ;;
    --campaigns) campaigns=$2; shift ;;
    --runs) runs=$2; shift ;;
    --work) work=$2; shift ;;
    --out) out=$2; shift ;;
    --variant) variants+=("$2"); shift ;;   # LABEL=ARGS: tare ab with these extra arguments too
    --tools) read -r -a tools <<< "$2"; shift ;;  # "tare hyperfine" (default), or either alone
    --cells) read -r -a cells <<< "$2"; shift ;;  # a subset of "aa plus0_5 plus1 plus2 plus5"
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "sensitivity.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

BUILD=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
knob="$BUILD/examples/ab_knob"
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
"$PY" -c 'import scipy' 2>/dev/null || { echo "$PY cannot import scipy: apt-get install python3-scipy, or set PYTHON" >&2; exit 2; }
for f in "$BUILD/tare" "$BUILD/tare-spawn-helper" "$knob"/ab_knob_{base,plus0_5,plus1,plus2,plus5}; do
  [ -x "$f" ] || { echo "$f is missing: cmake --build $BUILD --target tare tare-spawn-helper ab_knob_base ab_knob_plus0_5 ab_knob_plus1 ab_knob_plus2 ab_knob_plus5" >&2; exit 2; }
done

[ -n "$out" ] || out="${TMPDIR:-/tmp}/tare-sensitivity-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out/bin" "$out/raw"

# Snapshot every executable first: a rebuild of $BUILD during the study (other sessions share
# this machine) must not change what is measured halfway through.
cp "$BUILD/tare" "$BUILD/tare-spawn-helper" "$knob"/ab_knob_{base,plus0_5,plus1,plus2,plus5} "$out/bin/"
TARE="$out/bin/tare"
# cell label -> head build
head_of() { if [ "$1" = aa ]; then echo ab_knob_base; else echo "ab_knob_$1"; fi; }
# hyperfine gets per-cell copies at paths of equal length (arms/<cell>/base, arms/<cell>/head), as
# tare does for its arms: path length moves the initial stack (Mytkowicz et al. 2009), and that is
# not what this study compares.
for c in "${cells[@]}"; do
  [ -x "$out/bin/$(head_of "$c")" ] || { echo "sensitivity.sh: unknown cell '$c' (aa plus0_5 plus1 plus2 plus5)" >&2; exit 2; }
  mkdir -p "$out/arms/$c"
  cp "$out/bin/ab_knob_base" "$out/arms/$c/base"
  cp "$out/bin/$(head_of "$c")" "$out/arms/$c/head"
done

for v in "${variants[@]}"; do tools+=("tare-${v%%=*}"); done
variant_args() {  # tare-LABEL -> its extra arguments
  local label=${1#tare-} v
  for v in "${variants[@]}"; do [ "${v%%=*}" = "$label" ] && { echo "${v#*=}"; return; }; done
}

{
  echo "date_utc: $(date -u '+%Y-%m-%d %H:%M:%S')"
  echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (dirty tree)')"
  echo "tare: $("$TARE" --version 2>/dev/null | head -1)"
  echo "hyperfine: $(hyperfine --version)"
  echo "settings: campaigns=$campaigns runs=[$runs] work=$work cells=[${cells[*]}] tools=[${tools[*]}]"
  for v in "${variants[@]}"; do echo "variant: tare-${v%%=*}: tare ab ... ${v#*=}"; done
  echo "tare_command: tare ab --base bin/ab_knob_base --head bin/HEAD --null --cap R --store S --json J --quiet --inconclusive-ok [variant args] -- --work $work"
  echo "hyperfine_command: hyperfine -N --runs R --style none --export-json J 'arms/CELL/base --work $work' 'arms/CELL/head --work $work'"
  "$TARE" env | grep -E '^\s+\*? *(cpu\.model_name|cpu\.logical|host\.hypervisor|os\.kernel|os\.loadavg) ' | sed 's/^ *\*\? */env_start: /'
  (cd "$out/bin" && sha256sum ab_knob_* tare | sed 's/^/sha256: /')
} > "$out/meta.txt"
cat "$out/meta.txt" >&2

log="$out/campaigns.tsv"
printf 'round\truns\tcell\ttool\tstart_unix\tseconds\tload1\texit\tfile\n' > "$log"
total=0; for _ in $runs; do total=$((total + campaigns * ${#cells[@]} * ${#tools[@]})); done
done_n=0; t_start=$(date +%s)
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

run_one() {  # ROUND R CELL TOOL
  local i=$1 r=$2 c=$3 tool=$4 dir="$out/raw/R$2/$3" t0 t1 rc=0 f load
  mkdir -p "$dir"
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  if [ "$tool" = hyperfine ]; then
    f="$dir/hyperfine-$i.json"
    hyperfine -N --runs "$r" --style none --export-json "$f" \
      "$out/arms/$c/base --work $work" "$out/arms/$c/head --work $work" >"$dir/hyperfine-$i.log" 2>&1 || rc=$?
  else
    f="$dir/$tool-$i.json"
    rm -rf "$out/store" && mkdir -p "$out/store"  # tare creates a store only in a directory that exists
    # shellcheck disable=SC2046  # variant arguments are meant to split into words
    "$TARE" ab --base "$out/bin/ab_knob_base" --head "$out/bin/$(head_of "$c")" --null --cap "$r" \
      --store "$out/store/tare.db" --json "$f" --quiet --inconclusive-ok \
      $(variant_args "$tool") -- --work "$work" >"$dir/$tool-$i.log" 2>&1 || rc=$?
  fi
  t1=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\n' "$i" "$r" "$c" "$tool" "${t0%.*}" \
    "$(secs "$t0" "$t1")" "$load" "$rc" "${f#"$out"/}" >> "$log"
  done_n=$((done_n + 1))
  printf '[%d/%d] R=%s %-8s %-10s %s (exit %s, %s s, load %s)\n' "$done_n" "$total" "$r" "$c" "$tool" \
    "$("$PY" "$repo/bench/sensitivity_analyze.py" --one "$tool" "$f" 2>/dev/null || echo '?')" \
    "$rc" "$(secs "$t0" "$t1")" "$load" >&2
}

for i in $(seq 1 "$campaigns"); do
  for r in $runs; do
    n=${#cells[@]}
    for k in $(seq 0 $((n - 1))); do
      c=${cells[$(((k + i) % n))]}
      # Alternate which tool runs first: by round and by cell.
      if [ $(((i + k) % 2)) -eq 0 ]; then order=("${tools[@]}"); else
        order=(); for ((j=${#tools[@]}-1; j>=0; j--)); do order+=("${tools[$j]}"); done; fi
      for tool in "${order[@]}"; do run_one "$i" "$r" "$c" "$tool"; done
    done
  done
done

{
  echo "duration_s: $(($(date +%s) - t_start))"
  "$TARE" env | grep -E '^\s+\*? *os\.loadavg ' | sed 's/^ *\*\? */env_end: /'
} >> "$out/meta.txt"
rm -rf "$out/store"
"$PY" bench/sensitivity_analyze.py "$out" | tee "$out/summary.md"
echo "raw data: $out" >&2
