#!/usr/bin/env bash
# The action's first step (action.yml): installs tare's Debian packages and builds tare and its
# spawn helper from the action's own checkout into $RUNNER_TEMP/tare-build, then puts it on PATH.
set -euo pipefail
src=${GITHUB_ACTION_PATH:?set by GitHub Actions: the checkout of the action}
build=${RUNNER_TEMP:-/tmp}/tare-build
"$src/scripts/deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DTARE_BUILD_TESTS=OFF -DTARE_BUILD_EXAMPLES=OFF -DTARE_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" --target tare tare-spawn-helper
echo "$build" >> "${GITHUB_PATH:?set by GitHub Actions}"
echo "tare: built $("$build/tare" --version 2>/dev/null || echo tare) in $build" >&2
