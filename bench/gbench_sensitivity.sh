#!/usr/bin/env bash
# How often does `tare ab` catch a +2% change in an unmodified Google Benchmark binary, and how
# often does it flag a benchmark that did not change — at a campaign cost a CI job can pay?
# Issue 10 §4. Workload: examples/gbench_knob, a Google Benchmark 1.7 binary of three benchmarks;
# gbench_knob_plus2 makes BM_Knob do 2% more loop iterations and leaves BM_Steady and BM_Sort/16384
# as they are, so every campaign has one changed cell and two unchanged (A/A) cells. The two builds
# have byte-identical machine code (the knob is a data word), so no layout effect moves the
# unchanged cells (examples/gbench_knob/knob_bench.cc says what happened when it did).
#
# Every campaign: tare ab --base gbench_knob_base --head gbench_knob_plus2 --null --cap R
#   --gbench-min-time M [variant args], a fresh store. Metric: gb.cpu_time_ns (the default).
#   detected        = BM_Knob FAIL
#   false positive  = BM_Steady or BM_Sort/16384 FAIL or with a supported gain
# Variants run interleaved with the default, in alternating order, so they see the same host.
#
#   bench/gbench_sensitivity.sh                     # 10 campaigns, R = 40, M = 20ms
#   bench/gbench_sensitivity.sh --min-time default  # no --gbench-min-time: tare's own default
#   bench/gbench_sensitivity.sh --quick             # 2 campaigns (a smoke run)
#   bench/gbench_sensitivity.sh --campaigns 20 --cap 40 --min-time 50ms \
#       --variant splithl="--noise-floor null-split-v1 --interval signed-rank-v1"
#   bench/gbench_sensitivity.sh --analyze DIR       # the table again from a run's directory
#
# Needs build/tare, build/tare-spawn-helper and the gbench_knob builds (BUILD=dir to use another
# build tree) and python3. Output: DIR/campaigns.tsv, DIR/raw/*.json, the table on stdout.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
campaigns=10; cap=40; min_time=20ms; out=""; variants=(); analyze=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) campaigns=2 ;;
    --campaigns) campaigns=$2; shift ;;
    --cap) cap=$2; shift ;;
    --min-time) min_time=$2; shift ;;
    --out) out=$2; shift ;;
    --variant) variants+=("$2"); shift ;;   # LABEL=ARGS: also tare ab with these extra arguments
    --analyze) analyze=$2; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gbench_sensitivity.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

analyze_dir() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, json, math, statistics, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/campaigns.tsv"), delimiter="\t"))
def beta_ppf(q, a, b):  # bisection on the regularized incomplete beta (no scipy needed)
    def cdf(x):
        # continued fraction (Numerical Recipes betacf)
        if x <= 0: return 0.0
        if x >= 1: return 1.0
        lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
        front = math.exp(lbeta + a * math.log(x) + b * math.log(1 - x))
        def cf(a, b, x):
            qab, qap, qam = a + b, a + 1, a - 1
            c, dd = 1.0, 1 - qab * x / qap
            dd = 1 / (dd if abs(dd) > 1e-300 else 1e-300); h = dd
            for m in range(1, 300):
                m2 = 2 * m
                aa = m * (b - m) * x / ((qam + m2) * (a + m2))
                dd = 1 + aa * dd; dd = 1 / (dd if abs(dd) > 1e-300 else 1e-300)
                c = 1 + aa / c if abs(1 + aa / c) > 1e-300 else 1e-300
                h *= dd * c
                aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
                dd = 1 + aa * dd; dd = 1 / (dd if abs(dd) > 1e-300 else 1e-300)
                c = 1 + aa / c if abs(1 + aa / c) > 1e-300 else 1e-300
                de = dd * c; h *= de
                if abs(de - 1) < 1e-12: break
            return h
        if x < (a + 1) / (a + b + 2): return front * cf(a, b, x) / a
        return 1 - front * cf(b, a, 1 - x) / b
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if cdf(mid) < q: lo = mid
        else: hi = mid
    return (lo + hi) / 2
def cp(k, n):
    if n == 0: return "n/a"
    lo = 0.0 if k == 0 else beta_ppf(0.025, k, n - k + 1)
    hi = 1.0 if k == n else beta_ppf(0.975, k + 1, n - k)
    return f"{k}/{n} = {100*k/n:.0f}% [{100*lo:.0f}, {100*hi:.0f}%]"
tools = []
for r in rows:
    if r["tool"] not in tools: tools.append(r["tool"])
print("| | " + " | ".join(tools) + " |")
print("|---|" + "---|" * len(tools))
res = {t: {"det": 0, "n": 0, "fp": 0, "aa": 0, "knob": [], "aav": [], "secs": [], "pairs": [], "exit": [],
           "cells": {}, "hw": []} for t in tools}
for r in rows:
    t = res[r["tool"]]
    t["secs"].append(float(r["seconds"])); t["exit"].append(r["exit"])
    try:
        j = json.load(open(f"{d}/{r['file']}"))
    except Exception:
        continue
    for c in j.get("comparisons", []):
        m = c["metrics"][0] if c.get("metrics") else {}
        if c["cell"] == "BM_Knob":
            t["n"] += 1; t["det"] += c["verdict"] == "FAIL"; t["knob"].append(c["verdict"])
            t["pairs"].append(m.get("pairs", 0))
        else:
            flagged = c["verdict"] == "FAIL" or bool(c.get("supported_gain"))
            t["aa"] += 1; t["fp"] += flagged
            t["aav"].append(c["verdict"])
            k = t["cells"].setdefault(c["cell"], [0, 0]); k[0] += flagged; k[1] += 1
        ch = m.get("change") or {}
        if ch.get("lo") is not None and ch.get("hi") is not None:
            t["hw"].append((ch["hi"] - ch["lo"]) / 2 * 100)
def verdicts(v): return "/".join(str(v.count(x)) for x in ("PASS", "INCONCLUSIVE", "FAIL"))
print("| +2% (BM_Knob) FAIL | " + " | ".join(cp(res[t]["det"], res[t]["n"]) for t in tools) + " |")
print("| unchanged cells flagged (FAIL or gain) | " + " | ".join(cp(res[t]["fp"], res[t]["aa"]) for t in tools) + " |")
print("| BM_Knob verdicts P/I/F | " + " | ".join(verdicts(res[t]["knob"]) for t in tools) + " |")
for cell in sorted({c for t in tools for c in res[t]["cells"]}):
    print(f"| {cell} (unchanged) flagged | " + " | ".join(cp(*res[t]["cells"].get(cell, [0, 0])) for t in tools) + " |")
print("| interval half-width at the last look, median over cells | " + " | ".join(f"{statistics.median(res[t]['hw']):.2f}%" if res[t]["hw"] else "n/a" for t in tools) + " |")
print("| unchanged cells' verdicts P/I/F | " + " | ".join(verdicts(res[t]["aav"]) for t in tools) + " |")
print("| BM_Knob pairs, median | " + " | ".join(f"{statistics.median(res[t]['pairs']):.0f}" if res[t]["pairs"] else "n/a" for t in tools) + " |")
print("| campaign wall time, median | " + " | ".join(f"{statistics.median(res[t]['secs']):.0f} s" for t in tools) + " |")
loads = [float(r["load1"]) for r in rows]
print(f"\n{len(rows)} campaigns; 1-minute load at campaign start: median {statistics.median(loads):.1f}, max {max(loads):.1f}")
PY
}

if [ -n "$analyze" ]; then analyze_dir "$analyze"; exit 0; fi

BUILD=${BUILD:-build}
knob="$BUILD/examples/gbench_knob"
for f in "$BUILD/tare" "$BUILD/tare-spawn-helper" "$knob/gbench_knob_base" "$knob/gbench_knob_plus2"; do
  [ -x "$f" ] || { echo "$f is missing: cmake --build $BUILD --target tare tare-spawn-helper gbench_knob_base gbench_knob_plus2" >&2; exit 2; }
done
[ -n "$out" ] || out="${TMPDIR:-/tmp}/tare-gbench-sensitivity-$(date -u +%Y%m%d-%H%M%S)"
if [ -e "$out/campaigns.tsv" ]; then echo "gbench_sensitivity.sh: $out already holds a study; give a new --out" >&2; exit 2; fi
mkdir -p "$out/bin" "$out/raw"
# Snapshot every executable first: a rebuild during the study must not change what is measured.
cp "$BUILD/tare" "$BUILD/tare-spawn-helper" "$knob/gbench_knob_base" "$knob/gbench_knob_plus2" "$out/bin/"
TARE="$out/bin/tare"
tools=(tare); for v in "${variants[@]}"; do tools+=("tare-${v%%=*}"); done
variant_args() { local label=${1#tare-} v; for v in "${variants[@]}"; do [ "${v%%=*}" = "$label" ] && { echo "${v#*=}"; return; }; done; }
{
  echo "date_utc: $(date -u '+%Y-%m-%d %H:%M:%S')"
  echo "git: $(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "settings: campaigns=$campaigns cap=$cap min_time=$min_time tools=[${tools[*]}]"
  for v in "${variants[@]}"; do echo "variant: tare-${v%%=*}: ${v#*=}"; done
  (cd "$out/bin" && sha256sum gbench_knob_* tare | sed 's/^/sha256: /')
} > "$out/meta.txt"
cat "$out/meta.txt" >&2
printf 'round\ttool\tstart_unix\tseconds\tload1\texit\tfile\n' > "$out/campaigns.tsv"
total=$((campaigns * ${#tools[@]})); n=0
for i in $(seq 1 "$campaigns"); do
  order=("${tools[@]}")
  if [ $((i % 2)) -eq 0 ]; then order=(); for ((j=${#tools[@]}-1; j>=0; j--)); do order+=("${tools[$j]}"); done; fi
  for tool in "${order[@]}"; do
    f="raw/$tool-$i.json"; rc=0
    load=$(cut -d' ' -f1 /proc/loadavg); t0=$(date +%s.%N)
    rm -rf "$out/store" && mkdir -p "$out/store"  # tare creates a store only in a directory that exists
    # shellcheck disable=SC2046  # variant arguments are meant to split into words
    min_time_args=(--gbench-min-time "$min_time"); [ "$min_time" = default ] && min_time_args=()
    "$TARE" ab --base "$out/bin/gbench_knob_base" --head "$out/bin/gbench_knob_plus2" --null --cap "$cap" \
      "${min_time_args[@]}" --store "$out/store/tare.db" --json "$out/$f" --quiet --inconclusive-ok \
      $(variant_args "$tool") >"$out/raw/$tool-$i.log" 2>&1 || rc=$?
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$tool" "${t0%.*}" "$secs" "$load" "$rc" "$f" >> "$out/campaigns.tsv"
    n=$((n + 1)); echo "[$n/$total] $tool round $i: exit $rc, $secs s, load $load" >&2
  done
done
analyze_dir "$out"
echo "raw results: $out" >&2
