#!/usr/bin/env bash
# The action's second step (action.yml): runs `tare $TARE_ARGS`. For `ab` it adds --ledger, --json
# and --html in $RUNNER_TEMP/tare-out (the artifact) unless the arguments give them. Records the
# exit status and the ledger's path as step outputs; never fails itself (the gate step does).
set -uo pipefail
out=${RUNNER_TEMP:-/tmp}/tare-out
mkdir -p "$out"
# The arguments split as xargs splits them (quotes honoured), never evaluated: no $(...) or `...`
# in them runs, whatever the workflow interpolated into the input.
: "${TARE_ARGS:?the args input of the action is empty: give what follows tare, e.g. ab --base A --head B}"
args=()
while IFS= read -r -d '' word; do args+=("$word"); done < <(printf '%s' "$TARE_ARGS" | xargs printf '%s\0')
if [ ${#args[@]} -eq 0 ]; then
  echo "tare: the action's 'args' input could not be split (an unmatched quote?): $TARE_ARGS" >&2
  echo "exit-code=2" >> "${GITHUB_OUTPUT:?set by GitHub Actions}"
  exit 0
fi
ledger=""
if [ "${args[0]:-}" = "ab" ]; then
  # tare's flags go before a `--`; what follows it is the benchmark's own argv, left as it is.
  rest=()
  for i in "${!args[@]}"; do
    if [ "${args[$i]}" = "--" ]; then rest=("${args[@]:$i}"); args=("${args[@]:0:$i}"); break; fi
  done
  has() { local f; for f in "${args[@]}"; do [ "$f" = "$1" ] && return 0; done; return 1; }
  extra=()
  has --ledger || { ledger="$out/ledger.md"; extra+=(--ledger "$ledger"); }
  has --json || extra+=(--json "$out/ab.json")
  has --html || extra+=(--html "$out/ab.html")
  args=("${args[@]}" "${extra[@]}" "${rest[@]}")
  if [ -z "$ledger" ]; then
    for i in "${!args[@]}"; do [ "${args[$i]}" = "--ledger" ] && ledger=${args[$((i + 1))]:-}; done
  fi
fi
echo "tare: tare ${args[*]}" >&2
tare "${args[@]}"
code=$?
{
  echo "exit-code=$code"
  echo "ledger=$ledger"
} >> "${GITHUB_OUTPUT:?set by GitHub Actions}"
exit 0
