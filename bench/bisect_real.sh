#!/usr/bin/env bash
# tare bisect over a real open-source repository's history: google/snappy, whose
# snappy_benchmark (Google Benchmark) has been in the tree since December 2020. Prints the builds
# run, the builds and counts read from the cache, the culprit per benchmark, and the wall time of
# the bisection (measured alone, that figure is what bench/README.md records; on a shared machine
# it says nothing). A second bisection over the same cache follows, to show what the cache saves.
#
#   bench/bisect_real.sh SNAPPY_REPO [--quick] [--tare PATH] [--cache DIR] [--instrument sim|wall]
#                        [--allowance PERCENT]
#
# SNAPPY_REPO: a clone (or a bare mirror) of https://github.com/google/snappy; it is cloned again
# into a temporary directory, so it is never touched. Its code is not part of tare.
#   default range: 8b07ff1 (2022-01-12) .. 4f5cf9a (2024-01-19), 32 first-parent commits
#   --quick:       d644ca8 (2022-10-05) .. 37f375d (2022-11-18), 6 commits (8881ba1 changes hashing)
# The recipe configures snappy with CMake (for config.h and snappy-stubs-public.h; no tests, no
# bundled benchmark library) and compiles snappy_benchmark with g++ -O2 against the system's Google
# Benchmark (libbenchmark-dev) and zlib. Needs git, cmake, g++, valgrind (sim), libbenchmark-dev.
set -euo pipefail

usage() { sed -n 2,21p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
repo=$1
shift
quick=0
tare=$(cd "$(dirname "$0")/.." && pwd)/build/tare
cache=""
instrument=sim
allowance=1
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --tare) tare=$2; shift ;;
    --cache) cache=$2; shift ;;
    --instrument) instrument=$2; shift ;;
    --allowance) allowance=$2; shift ;;
    *) usage ;;
  esac
  shift
done
[ -x "$tare" ] || { echo "bisect_real.sh: no tare at $tare; build it (scripts/build.sh tare) or give --tare PATH" >&2; exit 2; }
git -C "$repo" rev-parse --verify -q 4f5cf9a^{commit} >/dev/null ||
  { echo "bisect_real.sh: $repo is not a clone of google/snappy (no commit 4f5cf9a); git clone https://github.com/google/snappy" >&2; exit 2; }

work=$(mktemp -d -t tare-bisect-real-XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -n "$cache" ] || cache=$work/cache
git clone -q "$repo" "$work/snappy"
if [ $quick = 1 ]; then good=d644ca8 bad=37f375d; else good=8b07ff1 bad=4f5cf9a; fi

build='cmake -S {src} -B {build} -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cd {src} && g++ -O2 -std=c++17 -DHAVE_CONFIG_H -I{src} -I{build} snappy.cc snappy-sinksource.cc snappy-stubs-internal.cc snappy-c.cc snappy-test.cc snappy_test_data.cc snappy_benchmark.cc -o {build}/snappy_benchmark -lbenchmark_main -lbenchmark -lpthread -lz'

bisect() {
  local json=$1
  local start end
  start=$(date +%s.%N)
  "$tare" bisect --repo "$work/snappy" --good "$good" --bad "$bad" --instrument "$instrument" --allowance "$allowance" \
    --build "$build" --executable '{build}/snappy_benchmark' --cache-dir "$cache" --attribute 5 \
    --json "$json" BM_ZFlat/0 BM_UFlat/0
  end=$(date +%s.%N)
  python3 - "$json" "$start" "$end" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
print(f"bisect_real: {j['commits']} commits, {j['builds']} builds run, {j['cache_hits']} from the cache, "
      f"{j['measured']} commits measured, {j['measured_from_cache']} from the cache, wall {wall:.1f} s")
for b in j["benchmarks"]:
    where = b.get("culprit", {}).get("commit", "")[:12] if b.get("changed") else "unchanged"
    print(f"bisect_real:   {b['name']}: {where} {b.get('culprit', {}).get('subject', '') if b.get('changed') else ''}")
PY
}

echo "bisect_real: snappy $good..$bad, --instrument $instrument, cache $cache" >&2
bisect "$work/first.json"
echo "bisect_real: the same bisection again (everything from the cache):" >&2
bisect "$work/again.json"
