#!/usr/bin/env bash
# Runs tare's libFuzzer harnesses (tests/fuzz/*_fuzz.cc) for a fixed time each and reports what
# they did. Builds build-fuzz/ with clang (-DTARE_FUZZ=ON: libFuzzer + ASan + UBSan) first.
#
#   bench/fuzz.sh                      every harness, 120 s each
#   bench/fuzz.sh --quick              every harness, 15 s each
#   bench/fuzz.sh --time 600 callgrind gbench
#   bench/fuzz.sh --runs 1000000 --time 3600 gbench   # stop at 1,000,000 executions (or the time)
#
# Each harness starts from its seed corpus (tests/fuzz/corpus/<harness>/, read only) and keeps
# what it finds in build-fuzz/fuzz-corpus/<harness>/, so a second run continues where the first
# stopped. A crash (or leak, timeout, out-of-memory) stops that harness; the input is copied to
# tests/fuzz/crashes/<harness>/, where the replay test (ctest -R fuzz_replay) runs it on every
# CI run from then on: fix the parser, keep the file. Exit status 1 when any harness crashed.
#
# Runs niced (the fuzzers use one core each, one at a time). Environment: BUILD_DIR (build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=120
runs=-1   # libFuzzer's -runs: unlimited
harnesses=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) seconds=15 ;;
    --time) seconds="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) harnesses+=("$1") ;;
  esac
  shift
done
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in tests/fuzz/*_fuzz.cc; do
    name=$(basename "$f" _fuzz.cc)
    harnesses+=("$name")
  done
fi

scripts/deps.sh clang
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    clang++ -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "bench/fuzz.sh: clang cannot link libFuzzer; install its runtime" \
       "(Debian 12: apt-get install libclang-rt-14-dev)" >&2
  exit 2
fi

BUILD_DIR=${BUILD_DIR:-build-fuzz}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTARE_FUZZ=ON >/dev/null
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("${h}_fuzz"); done
nice -n 19 cmake --build "$BUILD_DIR" -j2 --target "${targets[@]}"

# detect_leaks: a parser that leaks on some input is a bug too. malloc_limit/rss_limit: a length
# field that makes the parser allocate gigabytes is reported as an out-of-memory crash.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

printf '%-16s %8s %12s %10s %10s %8s\n' harness seconds execs exec/s new_units crashes
status=0
for h in "${harnesses[@]}"; do
  bin="$BUILD_DIR/fuzz/${h}_fuzz"
  work="$BUILD_DIR/fuzz-corpus/$h"
  artifacts="$BUILD_DIR/fuzz-artifacts/$h"
  log="$BUILD_DIR/fuzz-logs/$h.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  start=$(date +%s)
  set +e
  nice -n 19 "$bin" -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "tests/fuzz/corpus/$h" >"$log" 2>&1
  rc=$?
  set -e
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  crashes=0
  for f in "$artifacts"/*; do
    [ -f "$f" ] || continue
    crashes=$((crashes + 1))
    mkdir -p "tests/fuzz/crashes/$h"
    cp "$f" "tests/fuzz/crashes/$h/"
    echo "bench/fuzz.sh: $h: $(basename "$f") -> tests/fuzz/crashes/$h/ (log: $log)" >&2
    rm -f "$f"
  done
  if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
    echo "bench/fuzz.sh: $h exited $rc without an artifact; see $log" >&2
    crashes="?"
  fi
  [ "$crashes" != 0 ] && status=1
  printf '%-16s %8s %12s %10s %10s %8s\n' "$h" "$elapsed" "${execs:-?}" "${rate:-?}" \
    "${added:-?}" "$crashes"
done
exit $status
