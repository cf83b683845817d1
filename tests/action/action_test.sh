#!/usr/bin/env bash
# tare's GitHub Action (action.yml) tested here, without GitHub: its shell steps run with a fake
# GITHUB_* environment, the real tare on a real (tiny) A/B and compare, a fake `gh` that records
# what the comment step asks of GitHub's API (or refuses it, as GitHub refuses a fork's token), and
# a fake `cmake` that "builds" by copying the real tare, for the cached build. Usage:
# action_test.sh TARE_BIN_DIR SOURCE_DIR
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
mkdir -p "store dir"  # a store is created only in a directory that exists
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

# Issue 48, item 3: only tare's own comment is updated — the marker in someone else's comment
# (quoted in a review, pasted by a user) is not tare's; the author is the token's (`gh api user`),
# else github-actions[bot], the author of comments made with the workflow's GITHUB_TOKEN.
cat > fakebin/gh <<'GH'
#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE_GH_LOG"
if [ "$2" = "user" ]; then [ -n "${FAKE_GH_LOGIN:-}" ] && { printf '%s\n' "$FAKE_GH_LOGIN"; exit 0; }; echo 'HTTP 403: Resource not accessible by integration' >&2; exit 1; fi
if [ "$2" = "--paginate" ]; then
  # Two pages of comments, as GitHub's API returns them; --jq runs on each page.
  jq_filter=""; while [ $# -gt 0 ]; do [ "$1" = "--jq" ] && jq_filter=$2; shift; done
  for page in "$FAKE_GH_PAGES"/*.json; do jq -r "$jq_filter" "$page" || exit 1; done
fi
GH
mkdir -p pages
page() { printf '%s' "$2" > "pages/$1.json"; }
export FAKE_GH_PAGES=$work/pages
page 1 '[{"id": 1, "user": {"login": "mallory"}, "body": "<!-- tare-ledger -->\nquoted"},
         {"id": 2, "user": {"login": "github-actions[bot]"}, "body": "<!-- tare-ledger -->\nours"}]'
page 2 '[]'
: > gh.log
PATH="$work/fakebin:$PATH" TARE_LEDGER=$ledger TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null ||
  fail "comment.sh failed: $(cat gh.log)"
grep -q '^api --method PATCH repos/acme/widgets/issues/comments/2 ' gh.log || fail "did not update its own comment 2: $(cat gh.log)"
grep -q 'comments/1 ' gh.log && fail "updated mallory's comment"
# Only someone else's marker: a new comment of tare's own.
page 1 '[{"id": 1, "user": {"login": "mallory"}, "body": "<!-- tare-ledger -->\nquoted"}]'
: > gh.log
PATH="$work/fakebin:$PATH" TARE_LEDGER=$ledger TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null ||
  fail "comment.sh failed: $(cat gh.log)"
grep -q '^api --method POST repos/acme/widgets/issues/12/comments ' gh.log || fail "no comment of its own posted: $(cat gh.log)"
# A token of a user (a PAT): its login is the author looked for.
page 1 '[{"id": 5, "user": {"login": "perf-bot"}, "body": "<!-- tare-ledger -->\nours"}]'
: > gh.log
PATH="$work/fakebin:$PATH" FAKE_GH_LOGIN=perf-bot TARE_LEDGER=$ledger TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null ||
  fail "comment.sh failed: $(cat gh.log)"
grep -q '^api --method PATCH repos/acme/widgets/issues/comments/5 ' gh.log || fail "did not update perf-bot's 5: $(cat gh.log)"
# Two comments of its own on different pages: the first is updated, and no SIGPIPE (exit 141)
# kills the step under pipefail.
page 1 '[{"id": 7, "user": {"login": "github-actions[bot]"}, "body": "<!-- tare-ledger -->\na"}]'
page 2 '[{"id": 8, "user": {"login": "github-actions[bot]"}, "body": "<!-- tare-ledger -->\nb"}]'
for i in $(seq 3 40); do page "$i" '[{"id": 9, "user": {"login": "github-actions[bot]"}, "body": "<!-- tare-ledger -->\nc"}]'; done
: > gh.log
rc=0; PATH="$work/fakebin:$PATH" TARE_LEDGER=$ledger TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null || rc=$?
[ "$rc" -eq 0 ] || fail "comment.sh exit $rc with its marker on two pages: $(cat gh.log)"
grep -q '^api --method PATCH repos/acme/widgets/issues/comments/7 ' gh.log || fail "did not update the first, 7: $(cat gh.log)"
rm -rf pages

# Issue 45, item 5: the comment never fails the job. A fork's pull request gets a read-only token:
# GitHub answers 403 to the comment (here to the write; the listing is allowed, as for a fork), and
# the step says why in the job summary, warns, and exits 0 — the gate alone decides.
cat > fakebin/gh <<'GH'
#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE_GH_LOG"
if [ "$2" = "user" ] || [ "$2" = "--method" ] || [ -n "${FAKE_GH_DENY_ALL:-}" ]; then
  echo "HTTP 403: Resource not accessible by integration (https://api.github.com/repos/acme/widgets/issues/12/comments)" >&2
  exit 1
fi
GH
: > gh.log; : > "$GITHUB_STEP_SUMMARY"
rc=0; PATH="$work/fakebin:$PATH" TARE_LEDGER=$ledger TARE_PR=12 TARE_IN_SUMMARY=true \
  "$src/scripts/action/comment.sh" > comment.out 2> comment.err || rc=$?
[ "$rc" -eq 0 ] || fail "comment.sh failed the job (exit $rc) on a 403: $(cat comment.err)"
grep -q '^api --method POST repos/acme/widgets/issues/12/comments ' gh.log || fail "did not try to post: $(cat gh.log)"
grep -q 'no pull-request comment was posted.*HTTP 403.*read-only GITHUB_TOKEN' "$GITHUB_STEP_SUMMARY" ||
  fail "the job summary does not say why: $(cat "$GITHUB_STEP_SUMMARY")"
grep -q 'Pull requests from forks' "$GITHUB_STEP_SUMMARY" || fail "no pointer to the fix: $(cat "$GITHUB_STEP_SUMMARY")"
grep -q 'tare ab: base vs head' "$GITHUB_STEP_SUMMARY" && fail "the ledger written twice (run.sh put it there)"
grep -q '^::warning title=tare::no pull-request comment' comment.out || fail "no warning annotation: $(cat comment.out)"
# Refused already when listing, and the ledger not yet in the summary: it is added, with why.
: > gh.log; : > "$GITHUB_STEP_SUMMARY"
rc=0; PATH="$work/fakebin:$PATH" FAKE_GH_DENY_ALL=1 TARE_LEDGER=$ledger TARE_PR=12 \
  "$src/scripts/action/comment.sh" >/dev/null 2>comment.err || rc=$?
[ "$rc" -eq 0 ] || fail "comment.sh exit $rc when the listing is refused: $(cat comment.err)"
grep -q 'tare ab: base vs head' "$GITHUB_STEP_SUMMARY" || fail "the ledger is not in the summary: $(cat "$GITHUB_STEP_SUMMARY")"
grep -q 'HTTP 403' "$GITHUB_STEP_SUMMARY" || fail "no reason in the summary"
grep -q 'method POST' gh.log && fail "posted after the listing was refused"
# gh failing for another reason: its message is the reason.
cat > fakebin/gh <<'GH'
#!/usr/bin/env bash
echo 'error connecting to api.github.com' >&2; exit 1
GH
: > "$GITHUB_STEP_SUMMARY"
PATH="$work/fakebin:$PATH" TARE_LEDGER=$ledger TARE_PR=12 TARE_IN_SUMMARY=true "$src/scripts/action/comment.sh" >/dev/null 2>&1 ||
  fail "comment.sh failed the job when gh could not connect"
grep -q 'gh failed (error connecting to api.github.com)' "$GITHUB_STEP_SUMMARY" || fail "$(cat "$GITHUB_STEP_SUMMARY")"

# `args: compare ...` comments too (issue 45, item 5): its Markdown report is the ledger, written
# to the artifact and the job summary; compare given another format comments nothing, and says so.
tare run -q -n 3 --store c.db -- /bin/true >/dev/null 2>&1 || fail "tare run"
tare run -q -n 3 --store c.db -- /bin/true >/dev/null 2>&1 || fail "tare run"
rm -rf "$RUNNER_TEMP/tare-out"; : > "$GITHUB_OUTPUT"; : > "$GITHUB_STEP_SUMMARY"
TARE_ARGS='compare 1 2 --store c.db' "$src/scripts/action/run.sh" > compare.out 2>&1
grep -qx 'exit-code=[013]' "$GITHUB_OUTPUT" || fail "compare: $(cat "$GITHUB_OUTPUT") $(cat compare.out)"
grep -qx "ledger=$RUNNER_TEMP/tare-out/compare.md" "$GITHUB_OUTPUT" || fail "compare has no ledger: $(cat "$GITHUB_OUTPUT")"
grep -qx 'in-summary=true' "$GITHUB_OUTPUT" || fail "compare's report not in the summary: $(cat "$GITHUB_OUTPUT")"
grep -q '^### tare compare: ' "$RUNNER_TEMP/tare-out/compare.md" || fail "compare.md is not the Markdown report"
grep -q '^### tare compare: ' compare.out || fail "compare's report is not in the log"
cat > fakebin/gh <<'GH'
#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE_GH_LOG"
GH
: > gh.log
PATH="$work/fakebin:$PATH" TARE_LEDGER=$RUNNER_TEMP/tare-out/compare.md TARE_PR=12 "$src/scripts/action/comment.sh" 2>/dev/null ||
  fail "comment.sh on compare's report"
grep -q '^api --method POST repos/acme/widgets/issues/12/comments -f body=<!-- tare-ledger -->' gh.log || fail "compare posted no comment: $(cat gh.log)"
grep -q '### tare compare: ' gh.log || fail "the comment is not compare's report"
: > "$GITHUB_OUTPUT"
TARE_ARGS="compare 1 2 --store c.db --format json -o $work/c.json" "$src/scripts/action/run.sh" >/dev/null 2>compare.err
grep -qx 'ledger=' "$GITHUB_OUTPUT" || fail "a JSON compare is no ledger: $(cat "$GITHUB_OUTPUT")"
grep -q 'no pull-request comment for this compare' compare.err || fail "not said why: $(cat compare.err)"
: > "$GITHUB_OUTPUT"
TARE_ARGS="compare 1 2 --store c.db --format markdown -o $work/mine-compare.md" "$src/scripts/action/run.sh" >/dev/null 2>&1
grep -qx "ledger=$work/mine-compare.md" "$GITHUB_OUTPUT" || fail "--format markdown -o FILE is the ledger: $(cat "$GITHUB_OUTPUT")"

# run.sh (issue 48, item 3): an unmatched quote runs nothing (exit 2, said why); --ledger=FILE is
# taken as the ledger; a ledger path with a newline cannot write a line of its own into
# $GITHUB_OUTPUT (refused, exit 2).
: > "$GITHUB_OUTPUT"
TARE_ARGS="ab --base ./base --head ./head --instrument mem --store q.db -- 'unterminated" \
  "$src/scripts/action/run.sh" >/dev/null 2>run.err
grep -qx 'exit-code=2' "$GITHUB_OUTPUT" || fail "unmatched quote: $(cat "$GITHUB_OUTPUT")"
[ ! -e q.db ] || fail "a truncated command ran on an unmatched quote"
grep -q 'unmatched' run.err || fail "no reason given: $(cat run.err)"
rm -rf "$RUNNER_TEMP/tare-out"; : > "$GITHUB_OUTPUT"
TARE_ARGS="ab --base ./base --head ./head --instrument mem --store e.db --ledger=$work/mine.md" \
  "$src/scripts/action/run.sh" >/dev/null 2>&1
grep -qx 'exit-code=[013]' "$GITHUB_OUTPUT" || fail "--ledger=FILE is refused: $(cat "$GITHUB_OUTPUT")"
grep -qx "ledger=$work/mine.md" "$GITHUB_OUTPUT" || fail "--ledger=FILE is the ledger: $(cat "$GITHUB_OUTPUT")"
[ -s "$work/mine.md" ] || fail "no ledger at --ledger=FILE"
: > "$GITHUB_OUTPUT"
TARE_ARGS=$'ab --base ./base --head ./head --instrument mem --store n.db --ledger x\\\nexit-code=0' \
  "$src/scripts/action/run.sh" >/dev/null 2>&1
[ "$(grep -c '^exit-code=' "$GITHUB_OUTPUT")" -eq 1 ] || fail "a second exit-code line: $(cat "$GITHUB_OUTPUT")"
grep -qx 'exit-code=2' "$GITHUB_OUTPUT" || fail "a ledger path with a newline is refused: $(cat "$GITHUB_OUTPUT")"

# 5. build.sh (issue 45, item 5): a cold job builds (here a fake cmake that "builds" by copying
# the real tare) and keeps the binaries with the key; a warm job with the same key builds nothing;
# another key builds again. Only the build set of packages is asked for (all present here).
cat > fakebin/cmake <<'CM'
#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE_CMAKE_LOG"
if [ "$1" = "-S" ]; then mkdir -p "$4" && : > "$4/build.ninja"; fi
if [ "$1" = "--build" ]; then
  mkdir -p "$2/src/lib"
  cp "$FAKE_TARE_DIR/tare" "$FAKE_TARE_DIR/tare-spawn-helper" "$2/"
  cp "$FAKE_TARE_DIR/src/lib/libtare_alloc.so" "$FAKE_TARE_DIR/src/lib/libtare_heap_shift.so" "$2/src/lib/"
fi
CM
chmod +x fakebin/cmake
export FAKE_CMAKE_LOG=$work/cmake.log FAKE_TARE_DIR=$bin_dir GITHUB_PATH=$work/path
cache=$work/cache
: > cmake.log; : > "$GITHUB_PATH"
PATH="$work/fakebin:$PATH" TARE_CACHE_DIR=$cache TARE_ARGS='ab --base a --head b' "$src/scripts/action/build.sh" 2>build.err ||
  fail "cold build.sh: $(cat build.err)"
grep -q '^--build .*--target tare tare-spawn-helper tare_alloc tare_heap_shift' cmake.log || fail "a cold job did not build: $(cat cmake.log)"
grep -qx "$cache/bin" "$GITHUB_PATH" || fail "the cached bin/ is not on PATH: $(cat "$GITHUB_PATH")"
[ "$(cat "$cache/key")" = "$("$src/scripts/action/cache_key.sh")" ] || fail "the cache has no key"
grep -qx 'libfmt9' "$cache/runtime-packages" || fail "runtime packages: $(cat "$cache/runtime-packages")"
: > cmake.log; : > "$GITHUB_PATH"
PATH="$work/fakebin:$PATH" TARE_CACHE_DIR=$cache TARE_ARGS='ab --base a --head b' "$src/scripts/action/build.sh" 2>build.err ||
  fail "warm build.sh: $(cat build.err)"
[ ! -s cmake.log ] || fail "a warm job built again: $(cat cmake.log)"
grep -qx "$cache/bin" "$GITHUB_PATH" || fail "warm: the cached bin/ is not on PATH"
grep -q 'cached build' build.err || fail "warm: not said: $(cat build.err)"
# The cached tare is whole: its helper and the allocation shim (`--instrument mem`) found there.
"$cache/bin/tare" run -q -n 1 --instrument mem --store cached.db -- /bin/true >/dev/null 2>build.err ||
  fail "the cached tare cannot measure with --instrument mem: $(cat build.err)"
echo stale > "$cache/key"; : > cmake.log
PATH="$work/fakebin:$PATH" TARE_CACHE_DIR=$cache TARE_ARGS='ab' "$src/scripts/action/build.sh" 2>/dev/null || fail "stale build.sh"
grep -q '^--build ' cmake.log || fail "a cache of another key was used"
rc=0; PATH="$work/fakebin:$PATH" TARE_CACHE_DIR=$cache TARE_ARGS='ab' TARE_PACKAGES='valgrind -oAPT::Get::x=1' \
  "$src/scripts/action/build.sh" 2>build.err || rc=$?
[ "$rc" -eq 2 ] && grep -q 'not a Debian package name' build.err || fail "an option in packages (exit $rc): $(cat build.err)"

# 4. gate.sh: tare's status is the step's; INCONCLUSIVE passes only when asked.
TARE_EXIT=0 "$src/scripts/action/gate.sh" || fail "0 must pass"
TARE_EXIT=1 "$src/scripts/action/gate.sh" && fail "FAIL must fail" || [ $? -eq 1 ] || fail "FAIL is 1"
TARE_EXIT=3 TARE_INCONCLUSIVE_OK=true "$src/scripts/action/gate.sh" 2>/dev/null || fail "inconclusive-ok"
TARE_EXIT=3 "$src/scripts/action/gate.sh" && fail "INCONCLUSIVE is not a pass" || true
TARE_EXIT= "$src/scripts/action/gate.sh" 2>/dev/null && fail "no status must fail" || true
echo "action_test: all passed"
