#!/usr/bin/env bash
# End-to-end test of `tare oracle` through the real tare binary, as a user or CI runs it.
# For every case it pins the exit status and how many processes the command really ran (each
# synthetic command appends a line to a counter file per process).
#
#   usage: oracle_e2e.sh TARE ORACLE_FIXTURE
set -u
TARE=$1
FIXTURE=$2
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tare-oracle-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2   # the default run directory is .tare/oracle/ under the working directory
failures=0

# A shell-script command: a trace report look-alike written by /bin/sh.
cat > trace.sh <<'SH'
#!/bin/sh
echo run >> "$1"
case "$2" in
  ok)      printf '# shell-trace v1 artifact=loop.lua\n## pid %s\nloop.lua:3   JLOOP\nloop.lua:9 JFUNCF\n' $$ ;;
  shifted) printf '# shell-trace v1 artifact=loop.lua\nloop.lua:4 JLOOP\nloop.lua:9 JFUNCF\n' ;;
  segv)    kill -SEGV $$ ;;
  silent)  ;;
  esc)     printf '# shell-trace v1 artifact=loop.lua\nloop.lua:3 \033]0;pwned\007JLOOP\nloop.lua:9 JFUNCF\n' ;;
esac
SH
chmod +x trace.sh

# expect NAME STATUS PROCESSES TARE-ARGS...
expect() {
  local name=$1 want_status=$2 want_runs=$3
  shift 3
  rm -f "$WORK/count"
  "$TARE" "$@" > "$WORK/stdout" 2> "$WORK/stderr"
  local status=$?
  local runs=0
  [ -f "$WORK/count" ] && runs=$(wc -l < "$WORK/count")
  if [ "$status" = "$want_status" ] && [ "$runs" = "$want_runs" ]; then
    echo "ok    $name: exit $status, $runs processes"
  else
    echo "FAIL  $name: exit $status (want $want_status), $runs processes (want $want_runs)"
    sed 's/^/      stdout: /' "$WORK/stdout"
    sed 's/^/      stderr: /' "$WORK/stderr"
    failures=$((failures + 1))
  fi
}
# expect_output NAME TEXT: the last command's stdout contains TEXT.
expect_output() {
  if grep -qF -- "$2" "$WORK/stdout"; then echo "ok    $1"; else
    echo "FAIL  $1: stdout lacks '$2'"; sed 's/^/      /' "$WORK/stdout"; failures=$((failures + 1)); fi
}

# expect_no_escape NAME: the last command printed no ESC or BEL byte, on stdout or stderr.
expect_no_escape() {
  if grep -q "$(printf '[\033\007]')" "$WORK/stdout" "$WORK/stderr"; then
    echo "FAIL  $1: a raw escape sequence reached the terminal"; cat -v "$WORK/stdout" "$WORK/stderr" | sed 's/^/      /'
    failures=$((failures + 1))
  else echo "ok    $1"; fi
}

SH_CMD=("$WORK/trace.sh" "$WORK/count")
FX=("$FIXTURE" --counter "$WORK/count" --mode)

echo "== check, shell-script command"
expect "accept the golden"            0 9  oracle check --accept --golden sh.golden -- "${SH_CMD[@]}" ok
expect "deterministic"                0 9  oracle check --golden sh.golden -- "${SH_CMD[@]}" ok
expect_output "report names the run directory" "raw output  .tare/oracle/"
expect "real change (line shift)"     1 18 oracle check --golden sh.golden -- "${SH_CMD[@]}" shifted
expect_output "diff shows the shift" "+ loop.lua:4 JLOOP"
expect "crashing command"             2 1  oracle check --golden sh.golden -- "${SH_CMD[@]}" segv
expect "missing report"               2 1  oracle check --golden sh.golden -- "${SH_CMD[@]}" silent
expect "no -- before the command"     0 9  oracle check --golden sh.golden "${SH_CMD[@]}" ok

echo "== report lines holding a terminal escape (ESC ] 0 ; title BEL) are shown escaped"
expect "a line with ESC differs from the golden" 1 18 oracle check --golden sh.golden -- "${SH_CMD[@]}" esc
expect_output "the diff shows the escape" '+ loop.lua:3 \x1b]0;pwned\x07JLOOP'
expect_no_escape "no raw ESC in the diff"
expect "accept a golden holding ESC"  0 9  oracle check --accept --golden esc.golden -- "${SH_CMD[@]}" esc
expect_no_escape "no raw ESC when accepting"
expect "the golden holding ESC differs from the plain report" 1 18 oracle check --golden esc.golden -- "${SH_CMD[@]}" ok
expect_no_escape "no raw ESC from golden lines"

echo "== check, seeded fixture"
expect "accept the golden"            0 9  oracle check --accept -g fx.golden -- "${FX[@]}" marginal --p 1
expect "marginal p=0.6, absorbed by the retry" 0 18 oracle check -g fx.golden -- "${FX[@]}" marginal --p 0.6 --seed 8
expect_output "says a retry absorbed it" "MATCH on attempt 2 of 2"
expect "same, without a retry"        1 9  oracle check -g fx.golden --retries 0 -- "${FX[@]}" marginal --p 0.6 --seed 8
expect "header differs between trials" 3 9 oracle check -g fx.golden -- "${FX[@]}" header-drift
expect "header differs from golden"   1 9  oracle check -g fx.golden -- "${FX[@]}" header-changed
expect "crash on the 3rd process"     2 3  oracle check -g fx.golden -- "${FX[@]}" crash --crash-at 3
expect "timeout"                      2 1  oracle check -g fx.golden --timeout 300ms -- "${FX[@]}" hang

# Ctrl-C while a trial runs: the child is stopped, tare exits 130 and says where the output is.
rm -f "$WORK/count"
"$TARE" oracle check -g fx.golden -- "${FX[@]}" hang > "$WORK/stdout" 2> "$WORK/stderr" &
pid=$!
for _ in $(seq 50); do [ -s "$WORK/count" ] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
status=$?
runs=$(wc -l < "$WORK/count")
if [ "$status" = 130 ] && [ "$runs" = 1 ] && grep -q "raw output of the 1 process" "$WORK/stderr"; then
  echo "ok    Ctrl-C: exit 130, 1 process"
else
  echo "FAIL  Ctrl-C: exit $status (want 130), $runs processes (want 1)"; cat "$WORK/stderr"
  failures=$((failures + 1))
fi

echo "== usage errors run nothing"
expect "even --trials"                2 0  oracle check -g fx.golden --trials 8 -- "${FX[@]}" stable
expect "unknown flag"                 2 0  oracle check -g fx.golden --bogus -- "${FX[@]}" stable
expect "missing golden"               2 0  oracle check -g absent.golden -- "${FX[@]}" stable
printf 'tare-oracle-quarantine v1\nitem: Bench.RefLoop.lua:32 JFUNCF\n' > noreason.q
expect "quarantine entry without a reason" 2 0 oracle check -g fx.golden -q noreason.q -- "${FX[@]}" stable

echo "== quarantine"
printf 'tare-oracle-quarantine v1\nitem: Bench.RefLoop.lua:32 JFUNCF\nreason: counter aliasing since the line shift\n' > trace.q
expect "quarantined marginal spot"    0 9  oracle check -g fx.golden -q trace.q --retries 0 -- "${FX[@]}" marginal --p 0.6 --seed 8
expect_output "lists the quarantined item with its reason" "reason: counter aliasing since the line shift"

echo "== stability"
expect "marginal spot flagged"        1 60 oracle stability --trials 60 -g fx.golden -- "${FX[@]}" marginal --p 0.6 --seed 8
expect_output "suggests its quarantine" "item: Bench.RefLoop.lua:32 JFUNCF"
expect "solid items"                  0 30 oracle stability --trials 30 -- "${FX[@]}" stable

echo "== counters"
expect "accept"                       0 2  oracle counters --accept -g census.golden -- "${FX[@]}" counters
expect "byte-stable and equal"        0 2  oracle counters -g census.golden -- "${FX[@]}" counters
expect "changed count"                1 2  oracle counters -g census.golden -- "${FX[@]}" counters-changed
expect "not byte-stable"              3 2  oracle counters -g census.golden -- "${FX[@]}" counters-unstable

echo "== files and help"
trial=$(ls -d .tare/oracle/*/attempt-1/trial-01.stdout 2>/dev/null | head -1)
if [ -n "$trial" ] && ls .tare/oracle/*/report.txt > /dev/null 2>&1; then
  echo "ok    raw trial output and report.txt kept under .tare/oracle/<timestamp>/"
else
  echo "FAIL  no raw output under .tare/oracle/"; failures=$((failures + 1))
fi
"$TARE" oracle check --help > "$WORK/stdout" 2>&1
expect_output "check --help documents the exit statuses" "Exit status: 0 match"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all oracle e2e cases passed"
