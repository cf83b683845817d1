#!/usr/bin/env bash
# The action's last step (action.yml): fails as tare did. With inconclusive-ok, INCONCLUSIVE (3)
# passes; every other non-zero status fails the step.
set -euo pipefail
code=${TARE_EXIT:-}
if [ -z "$code" ]; then echo "tare: did not run (see the steps above)" >&2; exit 2; fi
if [ "$code" = 3 ] && [ "${TARE_INCONCLUSIVE_OK:-false}" = true ]; then
  echo "tare: INCONCLUSIVE let through (inconclusive-ok); INCONCLUSIVE is not a pass" >&2
  exit 0
fi
exit "$code"
