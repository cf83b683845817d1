#!/usr/bin/env bash
# tare's main job on a bundled example, from a fresh machine: installs what is missing, builds what
# the demo runs (tare, its spawn helper and the three ab_knob builds; scripts/test.sh builds the
# rest), then runs an A/B campaign on the bundled ab_knob example and prints its ledger.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh tare tare-spawn-helper ab_knob_base ab_knob_plus3 ab_knob_minus3 >/dev/null
BUILD_DIR=${BUILD_DIR:-build}
# The main job: did a change make the program slower? A paired A/B campaign on the ab_knob example
# (a base build, a build doing 3% more work, one doing 3% less, and a null arm: a second copy of
# base), judged on CPU time and on wall time; prints the ledger (also in .tare/ledger.md).
# Exit status 1 means some cell FAIL, which is the right answer for the +3% build.
K="$BUILD_DIR/examples/ab_knob"
status=0
"$BUILD_DIR/tare" ab --store .tare/tare.db --ledger .tare/ledger.md \
  --name "ab_knob: +3% and -3% builds against base" \
  --base "$K/ab_knob_base" --head "$K/ab_knob_plus3" --head "$K/ab_knob_minus3" \
  --metric perf.task_clock_ns --metric wall_ns -- --work 12 || status=$?
echo "demo: tare ab exited $status (0 all PASS, 1 some FAIL, 3 some INCONCLUSIVE; docs/campaign.md)" >&2
