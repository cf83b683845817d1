#!/usr/bin/env bash
# clang-tidy over tare's production sources, with the checks of .clang-tidy (docs/testing.md, "Format
# and lint"). CI runs it (scripts/test.sh) after the normal build, whose compile_commands.json it reads.
#
#   scripts/lint.sh [REGEX]   every production translation unit (or those whose path matches REGEX);
#                             exit 1 on any finding, each printed with its check's name
#
# What it reads: the libraries of src/ (as the unity build compiles them: each batch of up to 8
# sources, so a header is parsed once per batch rather than once per source), the tare executable's
# main, the spawn helper and the benchmark-author library. Not the tests, fixtures, examples or
# bench/ programs: findings there would cost CI minutes for code no user runs. A finding that is
# intended is silenced where it is, `// NOLINT(check-name): why`.
#
# Environment: BUILD_DIR (default build), JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
command -v run-clang-tidy >/dev/null || scripts/deps.sh clang-tidy
if [ ! -f "$BUILD_DIR/compile_commands.json" ]; then
  echo "tare: $BUILD_DIR/compile_commands.json is missing: run scripts/build.sh first" >&2
  exit 2
fi
# The production translation units: the unity batches of the tare_* libraries (not tare_*_test),
# and the sources built one by one.
production='(/CMakeFiles/tare_(?![a-z_]*_test\.dir)[a-z_]+\.dir/Unity/unity_[0-9]+_cxx\.cxx|/src/cli/main\.cc|/src/lib/[a-z_]+\.cc|/src/proc/(internal/)?[a-z_]+\.cc)$'
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -Wno-unknown-warning-option: the database holds g++'s flags (-Wno-maybe-uninitialized), which
# clang does not know. -Wno-error: clang's own compiler warnings are not the lint's business (g++'s
# -Werror build is, TARE_WERROR); the checks' findings are errors through .clang-tidy.
status=0
# (run-clang-tidy colours its output whatever it writes to: the colours are taken out.)
run-clang-tidy -p "$BUILD_DIR" -j "$JOBS" -quiet \
  -extra-arg=-Wno-unknown-warning-option -extra-arg=-Wno-error \
  "${1:-$production}" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$log" || status=$?
# run-clang-tidy prints each TU's command line and the counts of suppressed warnings: keep the findings.
grep -v -E '^((/usr/bin/)?clang-tidy|[0-9]+ warnings? (and [0-9]+ errors? )?generated|Suppressed [0-9]+ warnings|Use -header-filter|$)' "$log" |
  grep -v -E '^[0-9]+ errors? generated' || true
findings=$(grep -c -E '(error|warning): .*\[[a-z]+-[a-z-]+' "$log" || true)
tus=$(grep -c -E '^(/usr/bin/)?clang-tidy' "$log" || true)
if [ "$status" -ne 0 ] || [ "$findings" -gt 0 ]; then
  echo "tare: clang-tidy: $findings finding(s) in $tus translation units (.clang-tidy says which checks)" >&2
  exit 1
fi
echo "tare: clang-tidy: no findings in $tus translation units" >&2
