#!/usr/bin/env bash
# Builds tare and runs every test (unit, real-process, valgrind, Google Benchmark, SQLite, e2e,
# and the replay of the fuzzers' corpora), the lint check, then CI's sanitizer stages.
# CI runs this.
#
#   scripts/test.sh [ctest args...]              the normal build (build/, warnings as errors),
#                                                every test and scripts/lint.sh; then CI's
#                                                sanitizer stages:
#                                                scripts/sanitize.sh --ci (the asan-ci subset, ASan +
#                                                UBSan, in build-asan/) and scripts/tsan.sh (the
#                                                tsan-ci subset, ThreadSanitizer, in build-tsan/)
#   scripts/test.sh --no-sanitize [ctest args...] the normal build, its tests and lint
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
# The HTML report tests load pages in Debian's chromium (headless): docs/report.md. clang-format
# and clang-tidy: the format and lint checks (docs/testing.md, "Format and lint").
scripts/deps.sh chromium clang-format clang-tidy
# The GitHub Action's schema check (tests/action) uses action-validator from npm, pinned in
# tests/action/package-lock.json; Debian's npm when the machine has none.
command -v npm >/dev/null || scripts/deps.sh npm
npm ci --prefix tests/action --no-audit --no-fund --loglevel=error
BUILD_DIR=${BUILD_DIR:-build}
# What CI keeps (docs/testing.md, "Artifacts"): each stage's build output as a log, and the report
# pages' screenshots at each width (docs/report.md, "Layout").
artifacts=$(realpath -m "$BUILD_DIR")/artifacts
mkdir -p "$artifacts"
export TARE_ARTIFACTS=${TARE_ARTIFACTS:-$artifacts/html}
# Warnings in tare's own code are errors here (TARE_WERROR; docs/testing.md, "Warnings").
TARE_WERROR=${TARE_WERROR:-ON} scripts/build.sh 2>&1 | tee "$artifacts/build.log"
(cd "$BUILD_DIR" && ctest --output-on-failure -j"$(nproc)" "$@")
# Format and lint fail the run at its end, after the sanitizer stages, so one run reports them all.
failed=()
scripts/format.sh --check 2>&1 | tee "$artifacts/format.log" || failed+=("format (scripts/format.sh --check; --fix formats)")
BUILD_DIR=$BUILD_DIR scripts/lint.sh 2>&1 | tee "$artifacts/lint.log" || failed+=("lint (scripts/lint.sh)")
case "$sanitize" in
  ci)
    BUILD_DIR=build-asan scripts/sanitize.sh --ci "$@" 2>&1 | tee "$artifacts/sanitize-asan.log"
    BUILD_DIR=build-tsan scripts/tsan.sh "$@" 2>&1 | tee "$artifacts/sanitize-tsan.log" ;;
  all) BUILD_DIR=build-asan scripts/sanitize.sh "$@" 2>&1 | tee "$artifacts/sanitize-asan.log" ;;
esac
if [ ${#failed[@]} -gt 0 ]; then
  printf 'tare: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
