#!/usr/bin/env bash
# Builds tare and runs every test (unit, real-process, valgrind, Google Benchmark, SQLite, e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
# The HTML report tests load pages in Debian's chromium (headless): docs/report.md.
scripts/deps.sh chromium
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
cd "$BUILD_DIR"
ctest --output-on-failure -j"$(nproc)" "$@"
