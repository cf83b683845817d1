#!/usr/bin/env bash
# Installs the Debian packages tare needs. Idempotent: does nothing when everything is present;
# never downloads anything but Debian packages.
#
#   scripts/deps.sh [EXTRA...]            everything to build, test and run the examples and bench/
#                                         (scripts/build.sh, scripts/test.sh), plus EXTRA
#   scripts/deps.sh --build [EXTRA...]    only what building tare itself needs (no tests, examples
#                                         or bench/: -DTARE_BUILD_TESTS=OFF ...), plus EXTRA — the
#                                         GitHub Action's set (scripts/action/build.sh)
#   scripts/deps.sh --only PKG...         exactly these (the Action's cached build: the libraries
#                                         the binary it keeps was linked against)
set -euo pipefail

# The compiler, the build tools and every library CMakeLists.txt finds when tests, examples and
# bench/ are off (libpq and libarchive are opened on demand, but built against their headers).
build_packages=(
  cmake ninja-build g++ pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev libsqlitecpp-dev
  libboost-math-dev libtomlplusplus-dev libre2-dev nettle-dev libarchive-dev libpq-dev
)
# The rest of the development set: tests, examples, bench/, the sim instrument, the package.
dev_packages=(
  make libgtest-dev libgmock-dev libbenchmark-dev
  valgrind sqlite3 hyperfine procps binutils perl git zlib1g-dev
  postgresql postgresql-client
  dpkg-dev file   # the Debian package: cpack -G DEB reads its dependencies with dpkg-shlibdeps
  python3         # tests/module_rules/unity_names.py: the rule that keeps the unity builds safe
)
case "${1:-}" in
  --build) shift; packages=("${build_packages[@]}") ;;
  --only) shift; packages=() ;;
  *) packages=("${build_packages[@]}" "${dev_packages[@]}") ;;
esac
# Extra packages, e.g. `scripts/deps.sh chromium` for the HTML report tests.
packages+=("$@")
[ ${#packages[@]} -gt 0 ] || exit 0

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "tare: installing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "tare: need root (or sudo) to install: ${missing[*]}" >&2; exit 2
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
