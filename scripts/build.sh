#!/usr/bin/env bash
# Configures and builds tare into build/ (RelWithDebInfo). Used by demo.sh and test.sh.
#
#   scripts/build.sh                 everything: tare, its tests, examples, fuzz harnesses, bench/
#   scripts/build.sh TARGET...       only these targets and what they need (demo.sh: tare and the
#                                    example it runs)
#
# Environment: BUILD_DIR (default build), TARE_WERROR (ON: warnings are errors).
# ccache is used when it is installed (a rebuild after a small change then recompiles only what
# changed even in a fresh build directory).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
BUILD_DIR=${BUILD_DIR:-build}
# TARE_WERROR=ON (scripts/test.sh, so CI) makes warnings in tare's own code errors; unset, the
# build directory keeps what it was configured with (OFF by default: docs/testing.md, "Warnings").
werror=()
if [ -n "${TARE_WERROR:-}" ]; then werror=("-DTARE_WERROR=$TARE_WERROR"); fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "${werror[@]}" >/dev/null
elif [ ${#werror[@]} -gt 0 ] && ! grep -q "^TARE_WERROR:BOOL=$TARE_WERROR\$" "$BUILD_DIR/CMakeCache.txt"; then
  cmake -S . -B "$BUILD_DIR" "${werror[@]}" >/dev/null
fi
if [ $# -gt 0 ]; then
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target "$@"
else
  cmake --build "$BUILD_DIR" -j"$(nproc)"
fi
