#!/usr/bin/env bash
# `tare ab` on a whole suite as CI gates it, at the defaults (issue 42, item 1). Workload:
# bench/suite_bench.cc, a Google Benchmark 1.7 binary of 37 varied cells, and suite_bench_changed,
# the same code with BM_Knob/3 doing 3% more work and BM_Knob/5 5% less (data words: no layout
# effect on the other cells).
#
#   aa       tare ab --base suite_bench --head <a copy of it>: every cell unchanged.
#            Target: exit 0 in >= 9 of 10 campaigns, each within 5 minutes; no FAIL or gain in any.
#   changed  tare ab --base suite_bench --head suite_bench_changed on 10 cells (the two knobs and
#            eight others). Target: BM_Knob/3 FAIL and BM_Knob/5 a supported gain in >= 9 of 10,
#            the others PASS, each within 2 minutes.
# For each campaign: its wall time, exit status, verdict counts, the knob cells' verdicts, the
# estimate tare printed after its first block ("X to Y in all") and its projection once the first
# looks were taken ("about X in all", with the cells it expects to stay undecided), against the real
# duration.
#
#   bench/suite_gate.sh                       # 10 campaigns of each
#   bench/suite_gate.sh --quick               # 1 of each, the A/A on 6 cells (a smoke run, about 5 min)
#   bench/suite_gate.sh --only aa --campaigns 3 -- --interval signed-rank-v1   # extra tare ab args
#   bench/suite_gate.sh --analyze DIR         # the table again from a run's directory
#   bench/suite_gate.sh --shared-store        # the campaigns of a kind share one store, so from the
#                                             # second on tare says what the last cohort took
#                                             # before the first sample (recorded as 'earlier')
#
# Run it alone (no builds or tests beside it; load <= 1.5) and say the load with the figures; a
# second pass beside a parallel build is the "loaded host" row. Needs build/tare and the
# suite_bench builds (cmake --build build --target suite_bench suite_bench_changed), python3.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$repo/build}
campaigns=10; only=both; out=""; analyze=""; aa_filter=""; extra=(); shared=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) campaigns=1; aa_filter='BM_(Knob|Sort)/' ;;
    --campaigns) campaigns=$2; shift ;;
    --only) only=$2; shift ;;
    --out) out=$2; shift ;;
    --analyze) analyze=$2; shift ;;
    --shared-store) shared=1 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "suite_gate.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

analyze_dir() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, statistics, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/campaigns.tsv"), delimiter="\t"))
def seconds(text):  # "3.8 min", "48.2 s", "612 ms" -> seconds
    value, unit = text.split()
    return float(value) * {"ms": 1e-3, "s": 1, "min": 60, "h": 3600}[unit]
def err(r):  # the projection against the real duration (the work tier included in both)
    p = r.get("projection") or "-"
    if p == "-": return "no projection: every cell decided at its first look"
    return f"{100 * (seconds(p) / float(r['seconds']) - 1):+.0f}% of the real {float(r['seconds']):.0f} s"
for kind in ("aa", "changed"):
    rs = [r for r in rows if r["kind"] == kind]
    if not rs: continue
    secs = [float(r["seconds"]) for r in rs]
    ok = sum(1 for r in rs if r["exit"] == "0")
    print(f"{kind}: {len(rs)} campaigns, cells {rs[0]['cells']}; exit 0 in {ok}/{len(rs)}; "
          f"wall s median {statistics.median(secs):.0f} (min {min(secs):.0f}, max {max(secs):.0f}); "
          f"load at starts {min(float(r['load']) for r in rs):.2f}..{max(float(r['load']) for r in rs):.2f}, "
          f"at ends {min(float(r.get('load_end') or 0) for r in rs):.2f}..{max(float(r.get('load_end') or 0) for r in rs):.2f}")
    for r in rs:
        print(f"  #{r['n']}: exit {r['exit']}, {r['seconds']} s, PASS {r['pass']} (gains {r['gains']}), "
              f"FAIL {r['fail']}, INCONCLUSIVE {r['inconclusive']}; knob/3 {r['knob3']}, knob/5 {r['knob5']}; "
              f"estimate {r['estimate']}; projection {r.get('projection') or '-'} ({err(r)}), "
              f"{r.get('projected_undecided') or '-'} projected undecided; "
              f"before the first sample: last cohort took {r.get('earlier') or '-'}; "
              f"work tier {r.get('tier', '-')}; load {r['load']} -> {r.get('load_end', '-')}")
PY
}

if [ -n "$analyze" ]; then analyze_dir "$analyze"; exit 0; fi
[ -x "$build/tare" ] && [ -x "$build/bench/suite/suite_bench" ] || {
  echo "suite_gate.sh: build tare and the suite first: cmake --build build --target tare suite_bench suite_bench_changed" >&2
  exit 2
}
out=${out:-$(mktemp -d /tmp/tare-suite-gate.XXXXXX)}
mkdir -p "$out/raw"
cp "$build/bench/suite/suite_bench" "$out/suite_copy"  # the A/A's head: the same bytes, another file
printf 'kind\tn\tcells\texit\tseconds\tpass\tgains\tfail\tinconclusive\tknob3\tknob5\testimate\tload\tload_end\ttier\tprojection\tprojected_undecided\tearlier\n' > "$out/campaigns.tsv"

one() {  # kind n head args...
  local kind=$1 n=$2 head=$3; shift 3
  local store="$out/raw/$kind-$n.db" json="$out/raw/$kind-$n.json" err="$out/raw/$kind-$n.err"
  [ "$shared" = 0 ] || store="$out/raw/$kind.db"
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  "$build/tare" ab --base "$build/bench/suite/suite_bench" --head "$head" --store "$store" --json "$json" \
      --ledger "$out/raw/$kind-$n.md" "$@" "${extra[@]}" > "$out/raw/$kind-$n.out" 2> "$err" || rc=$?
  t1=$(date +%s.%N)
  local load_end; load_end=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/python3 - "$json" "$err" "$kind" "$n" "$rc" "$t0" "$t1" "$load" "$load_end" >> "$out/campaigns.tsv" <<'PY'
import json, re, sys
path, err, kind, n, rc, t0, t1, load, load_end = sys.argv[1:]
try:
    j = json.load(open(path))
except Exception:
    j = {"comparisons": []}
c = j["comparisons"]
count = lambda v: sum(1 for x in c if x["verdict"] == v)
gains = sum(1 for x in c if x.get("supported_gain"))
def verdict(cell):
    for x in c:
        if x["cell"] == cell:
            return x["verdict"] + ("+gain" if x.get("supported_gain") else "")
    return "-"
text = open(err).read()
m = re.search(r"first looks take about [^;:]+(?:;[^:]*)?: (.+? in all)", text)
t = re.search(r"Work tier: .*?\(([^()]+)\)$", text, re.M)
p = re.search(r"first looks taken \(([^)]*)\): .*?: about (\S+ \S+) in all", text)
u = re.search(r"; (?:about )?(\d+) of them .*?will likely still be undecided", text)
e = re.search(r"the campaign's last cohort on this host type \(cohort \d+, run \d+\) took (\S+ \S+) for", text)
print("\t".join([kind, n, str(len(c)), rc, f"{float(t1) - float(t0):.1f}", str(count("PASS")), str(gains),
                 str(count("FAIL")), str(count("INCONCLUSIVE")), verdict("BM_Knob/3"), verdict("BM_Knob/5"),
                 m.group(1) if m else "-", load, load_end, t.group(1) if t else "-",
                 p.group(2) if p else "-", u.group(1) if u else ("0" if p else "-"), e.group(1) if e else "-"]))
PY
}

changed_filter='BM_Knob/|BM_Spin/10$|BM_Sort/1024$|BM_Fnv/1024$|BM_Memcpy/4096$|BM_MapFind/256$|BM_StringFind/64$|BM_ToString$|BM_Accumulate/1024$'
for n in $(seq 1 "$campaigns"); do
  if [ "$only" = both ] || [ "$only" = aa ]; then
    if [ -n "$aa_filter" ]; then one aa "$n" "$out/suite_copy" --filter "$aa_filter"; else one aa "$n" "$out/suite_copy"; fi
  fi
  if [ "$only" = both ] || [ "$only" = changed ]; then
    one changed "$n" "$build/bench/suite/suite_bench_changed" --filter "$changed_filter"
  fi
done
echo "results in $out"
analyze_dir "$out"
