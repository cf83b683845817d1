#!/usr/bin/env bash
# Installs the Debian packages tare needs to build, test and run its examples. Idempotent: does
# nothing when everything is present; never downloads anything but Debian packages.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config make
  libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev libsqlitecpp-dev
  libboost-math-dev libtomlplusplus-dev libre2-dev nettle-dev libgtest-dev libgmock-dev libbenchmark-dev
  libarchive-dev valgrind sqlite3 hyperfine procps binutils perl git zlib1g-dev
  libpq-dev postgresql postgresql-client
  dpkg-dev file   # the Debian package: cpack -G DEB reads its dependencies with dpkg-shlibdeps
  python3         # tests/module_rules/unity_names.py: the rule that keeps the unity builds safe
)
# Extra packages for a target, e.g. `scripts/deps.sh chromium` for the HTML report tests.
packages+=("$@")

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
