#!/usr/bin/env bash
# CI's ThreadSanitizer stage: the tests of the places tare runs a second thread (docs/architecture.md,
# "Threads") built with -fsanitize=thread (g++, -O0, -DTARE_SANITIZE=thread) into build-tsan/, and run.
# scripts/test.sh runs it after the ASan stage, so CI does; docs/testing.md says what it covers.
#
#   scripts/tsan.sh [ctest args...]   builds only the target tare_tsan_ci and runs the tests labelled
#       tsan-ci (kTareTsanCiTests in cmake/TareSanitizers.cmake: the store written behind the next
#       sample, the run copy's reader, git's provenance and the host fingerprint on threads of their
#       own, the hash cache shared by them)
#
# Environment: BUILD_DIR (default build-tsan), JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
BUILD_DIR=${BUILD_DIR:-build-tsan}
JOBS=${JOBS:-$(nproc)}

# GCC 12's TSan runtime maps its shadow memory at fixed addresses and aborts at start ("FATAL:
# ThreadSanitizer: unexpected memory mapping") where the kernel randomises mmap with more than 28 bits
# (vm.mmap_rnd_bits = 32 on some newer distributions' kernels). A one-line program finds out first;
# there the build (whose test discovery runs the tests) and the tests run with address-space
# randomisation turned off for them alone (setarch -R), and it is said.
mkdir -p "$BUILD_DIR"
probe="$BUILD_DIR/tsan_probe"
echo 'int main() { return 0; }' | g++ -x c++ -fsanitize=thread - -o "$probe"
run=()
if ! "$probe" >/dev/null 2>"$probe.err"; then
  if grep -q "unexpected memory mapping" "$probe.err"; then
    echo "tare: ThreadSanitizer cannot map its shadow memory under this kernel's mmap randomisation" \
         "(vm.mmap_rnd_bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo '?')): building and testing" \
         "under 'setarch -R' (randomisation off for them); 'sysctl vm.mmap_rnd_bits=28' avoids it" >&2
    run=(setarch "$(uname -m)" -R)
  fi
  if ! "${run[@]}" "$probe" >/dev/null 2>"$probe.err"; then
    echo "tare: a ThreadSanitizer program cannot run on this host:" >&2
    cat "$probe.err" >&2
    exit 2
  fi
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
  # -O0, as the ASan stage (scripts/sanitize.sh): the build is most of the stage's cost, and TSan
  # sees every access either way. The programs tare measures are built -O2 without sanitizers
  # (cmake/TareSanitizers.cmake).
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O0 -g -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -g -DNDEBUG" \
    -DTARE_SANITIZE=thread >/dev/null
fi
"${run[@]}" cmake --build "$BUILD_DIR" -j"$JOBS" --target tare_tsan_ci

# halt_on_error: the first race fails the test that ran into it, with both stacks (exit 66).
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4"

cd "$BUILD_DIR"
"${run[@]}" ctest --output-on-failure -j"$JOBS" -L tsan-ci "$@"
