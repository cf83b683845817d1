#!/usr/bin/env bash
# Peak memory of the commands that read a whole stored run, against the size of the run (issue 48,
# item 7). bench/memory_store writes a store holding one `tare run` of N samples (and a small run of
# 1,000 to compare it with: same benchmarks, same host, whose fingerprint a real one-sample
# `tare run` of /bin/true lends); then each command runs once on it under /usr/bin/time, which
# prints its peak RSS (ru_maxrss), its wall time and the size of what it wrote:
#   tare merge OUT.db STORE              tare push --to OTHER.db --store STORE (a second SQLite file)
#   tare compare BIG SMALL               tare site -o DIR          tare report --run BIG
#   bench/memory_scale.sh            # N = 1,000,000
#   bench/memory_scale.sh --quick    # N = 100,000
#   N=300000 bench/memory_scale.sh   # any N
# TARE=path/to/tare and MEMORY_STORE=path/to/memory_store measure another build (e.g. main's
# before a change). Peak RSS is the claim; wall times on the shared VM are rough.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000000}
if [ "${1:-}" = "--quick" ]; then N=100000; fi
TARE=$(realpath "${TARE:-build/tare}")
GEN=$(realpath "${MEMORY_STORE:-build/bench/memory_store}")
[ -x "$GEN" ] && [ -x "$TARE" ] || { echo "build first: scripts/build.sh (needs $GEN and $TARE)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$TARE" run -q --warmup 0 -n 1 --store "$work/s.db" -- /bin/true >/dev/null
"$GEN" "$work/s.db" "$N" | sed 's/^/memory_store: /'
echo "store: $(du -m "$work/s.db" | cut -f1) MB, $(sqlite3 "$work/s.db" 'SELECT count(*) FROM samples') samples; $("$TARE" --version 2>&1 | head -1)"
big=$(sqlite3 "$work/s.db" 'SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET 1')
small=$(sqlite3 "$work/s.db" 'SELECT id FROM runs ORDER BY id DESC LIMIT 1')

measure() {  # measure LABEL OUTPUT COMMAND...: peak RSS, wall time, exit status, output size
  local label=$1 output=$2; shift 2
  local rc=0
  /usr/bin/time -f '%M %e' -o "$work/time" "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
  read -r kb secs <"$work/time" || true
  local bytes
  bytes=$(du -sb "$output" 2>/dev/null | cut -f1)
  printf '%-9s peak RSS %8.1f MB  wall %7.2f s  exit %d  output %s bytes (N = %d)\n' \
    "$label" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$secs" "$rc" "${bytes:-0}" "$N"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then sed 's/^/  stderr: /' "$work/stderr" | tail -3; fi
}
measure merge   "$work/merged.db"  "$TARE" merge "$work/merged.db" "$work/s.db"
measure push    "$work/pushed.db"  "$TARE" push --to "$work/pushed.db" --store "$work/s.db"
measure compare "$work/stdout"     "$TARE" compare "$big" "$small" --store "$work/s.db" --no-config
measure site    "$work/site"       "$TARE" site -o "$work/site" --store "$work/s.db"
measure report  "$work/report.html" "$TARE" report --run "$big" -o "$work/report.html" --store "$work/s.db"
