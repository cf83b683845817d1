#!/usr/bin/env bash
# Builds tare and runs every test (unit, real-process, valgrind, Google Benchmark, SQLite, e2e,
# and the replay of the fuzzers' corpora). CI runs this.
#
#   scripts/test.sh [ctest args...]              the normal build (build/)
#   scripts/test.sh --sanitize [ctest args...]   the ASan + UBSan build only (scripts/sanitize.sh)
#   scripts/test.sh --all [ctest args...]        both, normal first
#
# docs/testing.md says what each covers, how long each takes, and why CI runs the first only.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0
case "${1:-}" in
  --sanitize) shift; exec scripts/sanitize.sh "$@" ;;
  --all) shift; sanitize=1 ;;
esac
# The HTML report tests load pages in Debian's chromium (headless): docs/report.md.
scripts/deps.sh chromium
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
(cd "$BUILD_DIR" && ctest --output-on-failure -j"$(nproc)" "$@")
if [ "$sanitize" = 1 ]; then
  BUILD_DIR=build-asan scripts/sanitize.sh "$@"
fi
