#!/usr/bin/env bash
# tare's GitHub Action (action.yml) tested here, without GitHub: its shell steps run with a fake
# GITHUB_* environment, the real tare on a real (tiny) A/B, and a fake `gh` that records what the
# comment step asks of GitHub's API. Usage: action_test.sh TARE_BIN_DIR SOURCE_DIR
set -euo pipefail
bin_dir=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export PATH="$bin_dir:$PATH"
export GITHUB_ACTION_PATH=$src GITHUB_REPOSITORY=acme/widgets GITHUB_SERVER_URL=https://github.example GITHUB_RUN_ID=77
export RUNNER_TEMP=$work/runner GITHUB_OUTPUT=$work/output GITHUB_STEP_SUMMARY=$work/summary
mkdir -p "$RUNNER_TEMP"
cd "$work"
cp /bin/true base; cp /bin/true head

# 1. run.sh: tare ab with the ledger, JSON and HTML added in $RUNNER_TEMP/tare-out, before `--`.
: > "$GITHUB_OUTPUT"
TARE_ARGS='ab --base ./base --head ./head --instrument mem --store "store dir/t.db" -- x' "$src/scripts/action/run.sh" >/dev/null 2>&1
grep -qx 'exit-code=0' "$GITHUB_OUTPUT" || fail "exit code: $(cat "$GITHUB_OUTPUT")"
grep -qx "ledger=$RUNNER_TEMP/tare-out/ledger.md" "$GITHUB_OUTPUT" || fail "ledger output: $(cat "$GITHUB_OUTPUT")"
for f in ledger.md ab.json ab.html; do [ -s "$RUNNER_TEMP/tare-out/$f" ] || fail "no $f"; done
[ -f "store dir/t.db" ] || fail "a quoted argument was split"
grep -q '^## tare ab: base vs head — \*\*PASS\*\*' "$GITHUB_STEP_SUMMARY" || fail "no ledger in the job summary"
# The benchmark's argv stayed after `--`: the cohort ran `x` as the argument.
grep -q '"args": \[' "$RUNNER_TEMP/tare-out/ab.json" || fail "no args in ab.json"

# A flag of the benchmark's own after `--` is not tare's: tare still gets --json before `--`.
rm -rf "$RUNNER_TEMP/tare-out"; : > "$GITHUB_OUTPUT"
TARE_ARGS='ab --base ./base --head ./head --instrument mem --store t2.db -- --json' "$src/scripts/action/run.sh" >/dev/null 2>&1
grep -qx 'exit-code=0' "$GITHUB_OUTPUT" || fail "benchmark argv: $(cat "$GITHUB_OUTPUT")"
[ -s "$RUNNER_TEMP/tare-out/ab.json" ] || fail "--json after -- was taken for tare's"

# 2. The input is never evaluated: $(...) is a literal word, which tare refuses (exit 2).
: > "$GITHUB_OUTPUT"
TARE_ARGS='ab $(touch PWNED) `touch PWNED2` --base ./base --head ./head' "$src/scripts/action/run.sh" 2>/dev/null
[ ! -e PWNED ] && [ ! -e PWNED2 ] || fail "the args input was evaluated"
grep -qx 'exit-code=2' "$GITHUB_OUTPUT" || fail "a bad argument is exit 2: $(cat "$GITHUB_OUTPUT")"

# 3. comment.sh: posts once, then updates its own comment (found by the marker), via a fake gh.
mkdir -p fakebin
cat > fakebin/gh <<'GH'
#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE_GH_LOG"
if [ "$2" = "--paginate" ]; then printf '%s' "${FAKE_GH_EXISTING:-}"; fi
GH
chmod +x fakebin/gh
export FAKE_GH_LOG=$work/gh.log
ledger=$RUNNER_TEMP/tare-out/ledger.md
PATH="$work/fakebin:$PATH" TARE_LEDGER=$ledger TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null
grep -q '^api --paginate repos/acme/widgets/issues/12/comments --jq' gh.log || fail "did not look for its comment: $(cat gh.log)"
grep -q '^api --method POST repos/acme/widgets/issues/12/comments -f body=<!-- tare-ledger -->' gh.log ||
  fail "no new comment: $(cat gh.log)"
grep -q 'tare ab: base vs head' gh.log || fail "the comment is not the ledger"
grep -q 'run 77\](https://github.example/acme/widgets/actions/runs/77)' gh.log || fail "no link to the run"
: > gh.log
PATH="$work/fakebin:$PATH" FAKE_GH_EXISTING=4242 TARE_LEDGER=$ledger TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null
grep -q '^api --method PATCH repos/acme/widgets/issues/comments/4242 -f body=<!-- tare-ledger -->' gh.log ||
  fail "did not update comment 4242: $(cat gh.log)"
grep -q 'method POST' gh.log && fail "posted a second comment"

# 4. gate.sh: tare's status is the step's; INCONCLUSIVE passes only when asked.
TARE_EXIT=0 "$src/scripts/action/gate.sh" || fail "0 must pass"
TARE_EXIT=1 "$src/scripts/action/gate.sh" && fail "FAIL must fail" || [ $? -eq 1 ] || fail "FAIL is 1"
TARE_EXIT=3 TARE_INCONCLUSIVE_OK=true "$src/scripts/action/gate.sh" 2>/dev/null || fail "inconclusive-ok"
TARE_EXIT=3 "$src/scripts/action/gate.sh" && fail "INCONCLUSIVE is not a pass" || true
TARE_EXIT= "$src/scripts/action/gate.sh" 2>/dev/null && fail "no status must fail" || true
echo "action_test: all passed"
