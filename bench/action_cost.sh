#!/usr/bin/env bash
# What a job of tare's GitHub Action costs, cold and warm, measured with the action's own scripts
# (scripts/action/) on this machine, with a fake GITHUB_* environment (issue 45, item 5):
#
#   cold  nothing cached: cache_key.sh, build.sh (installs the build set of packages — nothing
#         where they are present, as here — configures and builds tare, its spawn helper and its
#         two preloaded libraries in Release, as the action does: no ccache), run.sh (a tiny
#         `tare ab --instrument mem`), gate.sh
#   warm  a fresh $RUNNER_TEMP holding only the cold job's cache directory, as actions/cache
#         restores it: the same four steps; build.sh finds the binaries under the same key
#
# Prints seconds per step and per job, and the cache's size. What it cannot see: GitHub's side of
# actions/cache (the download of the saved directory, printed here as its size) and apt's downloads
# on a runner without the packages (`scripts/deps.sh --build` lists what a cold job installs).
#
#   bench/action_cost.sh                      # one cold and one warm job
#   ROUNDS=3 bench/action_cost.sh             # alternate cold and warm, 3 of each
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
ROUNDS=${ROUNDS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CCACHE_DISABLE=1  # the action's runner has no ccache: a cold build compiles everything
export GITHUB_ACTION_PATH=$src GITHUB_REPOSITORY=acme/widgets GITHUB_SERVER_URL=https://github.example GITHUB_RUN_ID=1
cp /bin/true "$work/base"; cp /bin/true "$work/head"

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

# One job in a fresh $RUNNER_TEMP (`$1`: cold or warm). A warm job starts from the saved cache.
job() {
  local kind=$1 runner=$work/$1-runner t0 t1 t2 t3 t4 out
  rm -rf "$runner"; mkdir -p "$runner"
  if [ "$kind" = warm ]; then cp -a "$work/saved-cache" "$runner/tare-cache"; fi
  export RUNNER_TEMP=$runner GITHUB_OUTPUT=$runner/output GITHUB_PATH=$runner/path GITHUB_STEP_SUMMARY=$runner/summary
  : > "$GITHUB_OUTPUT"; : > "$GITHUB_PATH"
  out=$runner/steps.log
  t0=$(now)
  "$src/scripts/action/cache_key.sh" >> "$out"
  t1=$(now)
  TARE_ARGS='ab --base ./base --head ./head --instrument mem' TARE_CACHE_DIR=$runner/tare-cache \
    "$src/scripts/action/build.sh" >> "$out" 2>&1 || { cat "$out" >&2; exit 1; }
  t2=$(now)
  (
    cd "$work"
    PATH="$(cat "$GITHUB_PATH"):$PATH" TARE_ARGS="ab --base ./base --head ./head --instrument mem --store $runner/t.db" \
      "$src/scripts/action/run.sh" >> "$out" 2>&1
  )
  t3=$(now)
  # The verdict does not matter here (/bin/true allocates nothing: INCONCLUSIVE, exit 3), only
  # that tare ran: no exit status at all is a broken job.
  local gate=0
  TARE_EXIT=$(sed -n 's/^exit-code=//p' "$GITHUB_OUTPUT") "$src/scripts/action/gate.sh" >> "$out" 2>&1 || gate=$?
  t4=$(now)
  if ! grep -q '^exit-code=[0-9]' "$GITHUB_OUTPUT" || [ ! -s "$runner/tare-out/ledger.md" ]; then
    echo "action_cost: tare did not run in the $kind job:" >&2; cat "$out" >&2; exit 1
  fi
  if [ "$kind" = cold ]; then rm -rf "$work/saved-cache"; cp -a "$runner/tare-cache" "$work/saved-cache"; fi
  printf '%s job: %s s (key %s, build %s, run %s, gate %s; gate exit %s)\n' "$kind" "$(secs "$t0" "$t4")" \
    "$(secs "$t0" "$t1")" "$(secs "$t1" "$t2")" "$(secs "$t2" "$t3")" "$(secs "$t3" "$t4")" "$gate"
}

echo "action_cost: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
for _ in $(seq "$ROUNDS"); do
  job cold
  job warm
done
echo "cache: $(du -sh "$work/saved-cache" | cut -f1), runtime packages: $(tr '\n' ' ' < "$work/saved-cache/runtime-packages")"
