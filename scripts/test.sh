#!/usr/bin/env bash
# Builds tare and runs every test (unit, real-process, valgrind, Google Benchmark, SQLite, e2e,
# and the replay of the fuzzers' corpora), then CI's sanitizer stage. CI runs this.
#
#   scripts/test.sh [ctest args...]              the normal build (build/), every test; then CI's
#                                                sanitizer stage (scripts/sanitize.sh --ci: the
#                                                asan-ci subset, ASan + UBSan, in build-asan/)
#   scripts/test.sh --no-sanitize [ctest args...] the normal build only
#   scripts/test.sh --sanitize [ctest args...]   the whole ASan + UBSan build only (scripts/sanitize.sh)
#   scripts/test.sh --all [ctest args...]        the normal build, then the whole sanitizer build
#
# ctest args apply to each stage run. docs/testing.md says what each covers, how long each takes,
# and why CI runs the sanitizer subset and not the whole sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=ci
case "${1:-}" in
  --sanitize) shift; exec scripts/sanitize.sh "$@" ;;
  --all) shift; sanitize=all ;;
  --no-sanitize) shift; sanitize=none ;;
esac
# The HTML report tests load pages in Debian's chromium (headless): docs/report.md.
scripts/deps.sh chromium
# The GitHub Action's schema check (tests/action) uses action-validator from npm, pinned in
# tests/action/package-lock.json; Debian's npm when the machine has none.
command -v npm >/dev/null || scripts/deps.sh npm
npm ci --prefix tests/action --no-audit --no-fund --loglevel=error
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
# The report pages' screenshots at each width (docs/report.md, "Layout") are kept here.
export TARE_ARTIFACTS=${TARE_ARTIFACTS:-$PWD/$BUILD_DIR/artifacts/html}
(cd "$BUILD_DIR" && ctest --output-on-failure -j"$(nproc)" "$@")
case "$sanitize" in
  ci) BUILD_DIR=build-asan scripts/sanitize.sh --ci "$@" ;;
  all) BUILD_DIR=build-asan scripts/sanitize.sh "$@" ;;
esac
