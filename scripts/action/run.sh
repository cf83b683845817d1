#!/usr/bin/env bash
# The action's second step (action.yml): runs `tare $TARE_ARGS`. For `ab` it adds --ledger, --json
# and --html in $RUNNER_TEMP/tare-out (the artifact) unless the arguments give them; for `compare`
# it adds --format markdown -o $RUNNER_TEMP/tare-out/compare.md unless they give --format or -o,
# and that report is the ledger (a compare given another format or its own -o posts no comment,
# and says so). Records the exit status, the ledger's path and whether tare put the report in the
# job summary as step outputs; never fails itself (the gate step does).
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
elif [ "${args[0]:-}" = "compare" ]; then
  # compare's Markdown report is its ledger (issue 45, item 5): asked for unless the arguments
  # choose the format or the output themselves; `--format markdown -o FILE` is used as given.
  format="" output=""
  for i in "${!args[@]}"; do
    case "${args[$i]}" in
      --format) format=${args[$((i + 1))]:-} ;;
      --format=*) format=${args[$i]#--format=} ;;
      -o | --output) output=${args[$((i + 1))]:--} ;;
      --output=*) output=${args[$i]#--output=} ;;
    esac
  done
  if [ -z "$format" ] && [ -z "$output" ]; then
    ledger="$out/compare.md"
    args+=(--format markdown -o "$ledger")
  elif [ "$format" = markdown ] && [ -n "$output" ] && [ "$output" != - ]; then
    ledger=$output
  else
    echo "tare: no pull-request comment for this compare: the comment is compare's Markdown report in a file; leave --format and -o to the action, or give --format markdown -o FILE" >&2
  fi
fi
# The ledger's path becomes a line of $GITHUB_OUTPUT: a line break in it would write lines of its
# own there (a second exit-code=0).
case "$ledger" in
  *$'\n'* | *$'\r'*) refuse "the ledger's path (--ledger, or compare's -o) holds a line break; give a path without one" ;;
esac
echo "tare: tare ${args[*]}" >&2
# Whether tare put its report in the job summary (ab and compare append to $GITHUB_STEP_SUMMARY):
# the comment step, when it may not comment, then adds only why (comment.sh).
summary_before=$(stat -c %s "${GITHUB_STEP_SUMMARY:-/nonexistent}" 2>/dev/null || echo 0)
tare "${args[@]}"
code=$?
summary_after=$(stat -c %s "${GITHUB_STEP_SUMMARY:-/nonexistent}" 2>/dev/null || echo 0)
in_summary=false
[ "$summary_after" -gt "$summary_before" ] && in_summary=true
# A report written to a file is in the log too, as ab prints its ledger.
if [ "${args[0]}" = compare ] && [ -n "$ledger" ] && [ -f "$ledger" ]; then cat "$ledger"; fi
{
  echo "exit-code=$code"
  echo "ledger=$ledger"
  echo "in-summary=$in_summary"
} >> "${GITHUB_OUTPUT:?set by GitHub Actions}"
exit 0
