#!/usr/bin/env bash
# tare's main job on a bundled example, from a fresh machine: installs what is missing, builds,
# then measures the example Google Benchmark binary in fresh processes and stores every sample.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
BUILD_DIR=${BUILD_DIR:-build}
exec "$BUILD_DIR/tare" run --samples 5 --store .tare/tare.db \
  "$BUILD_DIR/examples/gbench_basic/gbench_basic" --benchmark_min_time=0.05
