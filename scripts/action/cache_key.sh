#!/usr/bin/env bash
# The key of the action's cached build (action.yml, the step before actions/cache; build.sh checks
# the cached binary against it): the platform (distribution, release, machine) and a sha256 of
# everything the build reads — CMakeLists.txt, cmake/, src/, include/, examples/ and the two
# scripts that install and build. The action's commit, by content: GitHub downloads an action as a
# tarball, without .git, so its sources are hashed rather than `git rev-parse` read. Prints the
# key; with $GITHUB_OUTPUT set, also writes `key=` and `dir=` (where build.sh keeps the binaries).
set -euo pipefail
src=${GITHUB_ACTION_PATH:?set by GitHub Actions: the checkout of the action}
platform=unknown
# shellcheck disable=SC1091  # the runner's, read at run time
if [ -r /etc/os-release ]; then platform=$(. /etc/os-release; echo "${ID:-linux}${VERSION_ID:-}"); fi
sources=$(cd "$src" && find CMakeLists.txt cmake src include examples scripts/action/build.sh scripts/deps.sh \
            -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-20)
key="tare-build-v1-$platform-$(uname -m)-$sources"
echo "$key"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "key=$key"
    echo "dir=${RUNNER_TEMP:-/tmp}/tare-cache"
  } >> "$GITHUB_OUTPUT"
fi
