#!/usr/bin/env bash
# The action's build step (action.yml): puts tare and its spawn helper on PATH, from the cache when
# it holds this build, else built from the action's own checkout.
#
# The cache ($RUNNER_TEMP/tare-cache, restored and saved by actions/cache under cache_key.sh's
# key) is laid out as an install: bin/tare; lib/tare/ with the spawn helper, the allocation shim
# (`--instrument mem`) and the heap-layout library (`--layouts`); `key` (the key they were built
# under) and `runtime-packages` (the Debian packages of the libraries the binary links, and of the
# two it opens on demand). A warm job installs those (nothing, where they are present), checks that
# `tare --version` runs, and builds nothing. A cold job installs only what building tare needs
# (`scripts/deps.sh --build`: compiler, cmake, ninja, the libraries — no test, example or bench/
# tooling) and builds those four targets in $RUNNER_TEMP/tare-build. Either way, what the command in
# `args` needs to run is added: valgrind for `--instrument sim`, binutils and valgrind for
# `tare attribute`, and the `packages` input's words (TARE_PACKAGES).
set -euo pipefail
src=${GITHUB_ACTION_PATH:?set by GitHub Actions: the checkout of the action}
cache=${TARE_CACHE_DIR:-${RUNNER_TEMP:-/tmp}/tare-cache}
build=${RUNNER_TEMP:-/tmp}/tare-build
key=$(GITHUB_OUTPUT='' "$src/scripts/action/cache_key.sh")

run_packages=()
read -r command _ <<< "${TARE_ARGS:-}" || true
if [ "${command:-}" = attribute ]; then
  run_packages+=(binutils valgrind)
elif [[ " ${TARE_ARGS:-} " =~ [[:space:]]--instrument[=[:space:]][^[:space:]]*sim ]]; then
  run_packages+=(valgrind)
fi
# The packages input: Debian package names only (never an apt-get option).
read -ra words <<< "${TARE_PACKAGES:-}" || true
for word in "${words[@]}"; do
  if [[ ! "$word" =~ ^[a-z0-9][a-z0-9+.-]+$ ]]; then
    echo "tare: the packages input holds '$word', which is not a Debian package name; give names separated by spaces, e.g. valgrind" >&2
    exit 2
  fi
  run_packages+=("$word")
done

warm=false
kept=(bin/tare lib/tare/tare-spawn-helper lib/tare/libtare_alloc.so lib/tare/libtare_heap_shift.so)
complete() { local f; for f in "${kept[@]}"; do [ -f "$cache/$f" ] || return 1; done; }
if complete && [ "$(cat "$cache/key" 2>/dev/null)" = "$key" ]; then
  mapfile -t runtime < "$cache/runtime-packages"
  "$src/scripts/deps.sh" --only "${runtime[@]}" "${run_packages[@]}"
  if "$cache/bin/tare" --version >/dev/null 2>&1; then
    warm=true
  else
    echo "tare: the cached build does not start here ($("$cache/bin/tare" --version 2>&1 | head -n 1)); building" >&2
  fi
fi
if [ "$warm" = false ]; then
  "$src/scripts/deps.sh" --build "${run_packages[@]}"
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DTARE_BUILD_TESTS=OFF -DTARE_BUILD_EXAMPLES=OFF -DTARE_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build "$build" --target tare tare-spawn-helper tare_alloc tare_heap_shift
  rm -rf "$cache"
  mkdir -p "$cache/bin" "$cache/lib/tare"
  cp "$build/tare" "$cache/bin/"
  cp "$build/tare-spawn-helper" "$build/src/lib/libtare_alloc.so" "$build/src/lib/libtare_heap_shift.so" "$cache/lib/tare/"
  # The packages of the libraries the binary links (by the file's real name: under merged /usr a
  # library is registered at /usr/lib or /lib), and of those it opens at first use (libpq, libarchive).
  {
    ldd "$cache/bin/tare" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | while read -r lib; do
      real=$(readlink -f "$lib")
      for path in "$real" "/usr${real#/usr}" "${real#/usr}"; do dpkg -S "$path" 2>/dev/null && break; done | cut -d: -f1 || true
    done
    echo libpq5
    echo libarchive13
  } | sort -u > "$cache/runtime-packages"
  echo "$key" > "$cache/key"
fi
echo "$cache/bin" >> "${GITHUB_PATH:?set by GitHub Actions}"
echo "tare: $("$cache/bin/tare" --version) in $cache/bin ($([ "$warm" = true ] && echo "cached build" || echo "built"), key $key)" >&2
