#!/usr/bin/env bash
# The sanitizer build: tare and its tests built with AddressSanitizer and UndefinedBehaviorSanitizer
# (g++, -O0 -g, -DTARE_SANITIZE=address,undefined) into build-asan/, then the unit and e2e tests.
# scripts/test.sh --sanitize runs it (scripts/test.sh --all runs the normal tests, then this);
# docs/testing.md says what it covers and what it leaves out.
#
#   scripts/sanitize.sh [ctest args...]        e.g. scripts/sanitize.sh -R Callgrind
#   scripts/sanitize.sh --ci [ctest args...]   CI's stage: builds only the target tare_asan_ci and
#       runs only the tests labelled asan-ci (the parsers and escaping of input tare did not write,
#       every fuzz replay, the bad-input e2e suite; cmake/TareSanitizers.cmake lists them).
#       scripts/test.sh runs it after the normal tests, so CI does.
#
# Environment: BUILD_DIR (default build-asan), JOBS (default nproc).
#
# Left out: the `valgrind` label. Valgrind cannot run ASan-built programs (ASan reserves terabytes
# of shadow address space that valgrind refuses), and the sim instrument's figures would be
# ASan's anyway. Those tests run in the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."
ci=0
if [ "${1:-}" = "--ci" ]; then
  shift
  ci=1
fi
scripts/deps.sh
BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-$(nproc)}

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # -O0: tare's own code unoptimised under the sanitizers compiles in about half the time of -O1
  # (tare_store's heaviest unity file 49 -> 29 s, tare_ab_report's 37 -> 19 s; docs/testing.md),
  # every access stays in the code for ASan to check, and stacks are exact. The programs tare
  # measures are built -O2 without sanitizers (cmake/TareSanitizers.cmake).
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O0 -g -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -g -DNDEBUG" \
    -DTARE_SANITIZE=address,undefined >/dev/null
fi
if [ "$ci" = 1 ]; then
  # The same build directory and flags as the full stage: only fewer targets built, fewer run.
  cmake --build "$BUILD_DIR" -j"$JOBS" --target tare_asan_ci
  selection=(-L asan-ci)
else
  cmake --build "$BUILD_DIR" -j"$JOBS"
  selection=(-L 'unit|e2e' -LE valgrind)
fi

# halt_on_error/abort_on_error: the first report fails the test that caused it, with its stack.
# The programs tare measures (fixtures, examples, the allocation shim, the spawn helper) are built
# without sanitizers, as users build theirs (cmake/TareSanitizers.cmake says why).
# detect_leaks: LeakSanitizer needs to stop the process's threads with ptrace; where the host
# forbids it (some containers) it cannot run at all, so it is probed first and turned off then.
asan="halt_on_error=1:abort_on_error=1:print_stacktrace=1:detect_stack_use_after_return=1"
asan="$asan:strict_string_checks=1:check_initialization_order=1"
leaks=1
probe="$BUILD_DIR/src/base/base_test"
if [ -x "$probe" ] && ASAN_OPTIONS="detect_leaks=1" "$probe" --gtest_list_tests 2>&1 >/dev/null |
    grep -q "LeakSanitizer has encountered a fatal error"; then
  echo "tare: LeakSanitizer cannot run on this host (ptrace is restricted); leak checks are off" >&2
  leaks=0
fi
export ASAN_OPTIONS="$asan:detect_leaks=$leaks"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

cd "$BUILD_DIR"
ctest --output-on-failure -j"$JOBS" "${selection[@]}" "$@"
