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
refuse() {
  echo "tare: $1" >&2
  echo "exit-code=2" >> "${GITHUB_OUTPUT:?set by GitHub Actions}"
  exit 0
}
# Split into a file first, to see xargs's status: on an unmatched quote it prints the words before
# it and fails, and running those would be running a command the workflow did not write.
words=$(mktemp)
trap 'rm -f "$words"' EXIT
if ! printf '%s' "$TARE_ARGS" | xargs -r printf '%s\0' > "$words" 2>"$words.err"; then
  why=$(cat "$words.err"); rm -f "$words.err"
  refuse "the action's 'args' input could not be split ($why); nothing was run. Close the quote, or write a quote inside the other kind: \"it's\" or 'say \"x\"'"
fi
rm -f "$words.err"
args=()
while IFS= read -r -d '' word; do args+=("$word"); done < "$words"
[ ${#args[@]} -gt 0 ] || refuse "the action's 'args' input holds no words: give what follows tare, e.g. ab --base A --head B"
ledger=""
if [ "${args[0]:-}" = "ab" ]; then
  # tare's flags go before a `--`; what follows it is the benchmark's own argv, left as it is.
  rest=()
  for i in "${!args[@]}"; do
    if [ "${args[$i]}" = "--" ]; then rest=("${args[@]:$i}"); args=("${args[@]:0:$i}"); break; fi
  done
  # A flag given as `--flag VALUE` or `--flag=VALUE`.
  has() { local f; for f in "${args[@]}"; do [ "$f" = "$1" ] || [ "${f#"$1="}" != "$f" ] && return 0; done; return 1; }
  extra=()
  has --ledger || { ledger="$out/ledger.md"; extra+=(--ledger "$ledger"); }
  has --json || extra+=(--json "$out/ab.json")
  has --html || extra+=(--html "$out/ab.html")
  if [ -z "$ledger" ]; then
    for i in "${!args[@]}"; do
      case "${args[$i]}" in
        --ledger) ledger=${args[$((i + 1))]:-} ;;
        --ledger=*) ledger=${args[$i]#--ledger=} ;;
      esac
    done
  fi
  args=("${args[@]}" "${extra[@]}" "${rest[@]}")
fi
# The ledger's path becomes a line of $GITHUB_OUTPUT: a line break in it would write lines of its
# own there (a second exit-code=0).
case "$ledger" in
  *$'\n'* | *$'\r'*) refuse "the --ledger path holds a line break; give a path without one" ;;
esac
echo "tare: tare ${args[*]}" >&2
tare "${args[@]}"
code=$?
{
  echo "exit-code=$code"
  echo "ledger=$ledger"
} >> "${GITHUB_OUTPUT:?set by GitHub Actions}"
exit 0
