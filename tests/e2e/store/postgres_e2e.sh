#!/usr/bin/env bash
# tare on a shared PostgreSQL store, end to end through the real binary: 8 concurrent `tare run`
# processes x 500 samples into one database (nothing lost or duplicated), the reading commands on
# it, `tare merge` and `tare push` from SQLite files into it (twice: nothing added), and a server
# restart in the middle of a `tare run`, two pushes of the same runs at once, a 63 s outage in the
# middle of a `tare ab` (resumed once the server is back). Runs under
# with_postgres.sh, which gives TARE_TEST_PG.
#
#   usage: with_postgres.sh postgres_e2e.sh TARE
set -u
TARE=$(realpath "$1")
: "${TARE_TEST_PG:?run under tests/e2e/store/with_postgres.sh}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tare-pg-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# Each part in a schema of its own.
schema() {
  psql -q "$TARE_TEST_PG" -c "DROP SCHEMA IF EXISTS $1 CASCADE; CREATE SCHEMA $1" >/dev/null
  echo "$TARE_TEST_PG&options=-csearch_path%3D$1"
}
q() { psql -At "$1" -c "$2"; }

# 1. Eight writers at once, 500 samples each, of a tiny command.
PG=$(schema concurrent)
start=$(date +%s%N)
pids=()
for i in 1 2 3 4 5 6 7 8; do
  "$TARE" run --store "$PG" --samples 500 --warmup 0 --no-git --tag writer=$i -- /bin/true >run$i.out 2>run$i.err &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || fail "writer $((i + 1)) exited $?: $(tail -3 run$((i + 1)).err)"
done
end=$(date +%s%N)
echo "8 concurrent tare run x 500 samples into PostgreSQL: $(( (end - start) / 1000000 )) ms"
[ "$(q "$PG" 'SELECT count(*) FROM runs')" = 8 ] || fail "$(q "$PG" 'SELECT count(*) FROM runs') runs, not 8"
[ "$(q "$PG" 'SELECT count(*) FROM samples')" = 4000 ] || fail "$(q "$PG" 'SELECT count(*) FROM samples') samples, not 4000"
# Each run: seq 0..499 exactly once, every sample with its values.
bad=$(q "$PG" "SELECT run_id FROM samples GROUP BY run_id HAVING count(*) <> 500 OR count(DISTINCT seq) <> 500 OR min(seq) <> 0 OR max(seq) <> 499")
[ -z "$bad" ] || fail "runs with lost or duplicated samples: $bad"
[ "$(q "$PG" 'SELECT count(*) FROM samples s WHERE NOT EXISTS (SELECT 1 FROM sample_values v WHERE v.sample_id = s.id AND v.metric = '"'wall_ns'"')')" = 0 ] ||
  fail "samples without wall_ns"
[ "$(q "$PG" "SELECT count(DISTINCT status) || status FROM runs GROUP BY status")" = "1complete" ] || fail "not every run is complete"

# 2. The reading commands on PostgreSQL.
"$TARE" runs --store "$PG" >runs.txt 2>err.txt || fail "runs: $(cat err.txt)"
[ "$(grep -c 'writer=' runs.txt)" = 8 ] || fail "runs lists $(grep -c 'writer=' runs.txt) runs: $(cat runs.txt)"
"$TARE" export --store "$PG" --run tag:writer=3 >export.json 2>err.txt || fail "export: $(cat err.txt)"
[ "$(grep -o '"seq"' export.json | wc -l)" = 500 ] || fail "export has $(grep -o '"seq"' export.json | wc -l) samples"
# JSON: the console lists only benchmarks that changed, and an untouched /bin/true is a count.
"$TARE" compare --store "$PG" tag:writer=1 tag:writer=2 --format json >compare.txt 2>err.txt
status=$?
[ $status -le 3 ] || fail "compare exited $status: $(cat err.txt)"   # 0, 1 regressed, 3 inconclusive
grep -q "/bin/true" compare.txt || fail "compare did not judge /bin/true: $(cat compare.txt)"
"$TARE" history --store "$PG" /bin/true >history.txt 2>err.txt || fail "history: $(cat err.txt)"
grep -q "8 runs\|8 run" history.txt || fail "history did not see 8 runs: $(head -5 history.txt)"
"$TARE" report --store "$PG" --run latest >report.md 2>err.txt || fail "report: $(cat err.txt)"
[ -s report.md ] || fail "report is empty"

# 3. merge and push from SQLite files into PostgreSQL: once adds, twice adds nothing.
PG=$(schema merged)
"$TARE" run --store a.db --samples 3 --no-git -- /bin/true >/dev/null 2>&1 || fail "run into a.db"
"$TARE" run --store b.db --samples 3 --no-git -- /bin/echo b >/dev/null 2>&1 || fail "run into b.db"
"$TARE" merge "$PG" a.db b.db >out.txt 2>err.txt || fail "merge into PostgreSQL: $(cat err.txt)"
grep -q "^2 runs added" out.txt || fail "merge said: $(cat out.txt)"
"$TARE" merge "$PG" a.db b.db >out.txt 2>err.txt || fail "second merge: $(cat err.txt)"
grep -q "^0 runs added" out.txt || fail "second merge said: $(cat out.txt)"
"$TARE" run --store a.db --samples 2 --no-git -- /bin/echo later >/dev/null 2>&1 || fail "second run into a.db"
"$TARE" push --to "$PG" --store a.db >out.txt 2>err.txt || fail "push: $(cat err.txt)"
grep -q "^1 runs pushed to .*, 1 were already there" out.txt || fail "push said: $(cat out.txt)"
"$TARE" push --to "$PG" --store a.db >out.txt 2>err.txt || fail "second push: $(cat err.txt)"
grep -q "^0 runs pushed" out.txt || fail "second push said: $(cat out.txt)"
[ "$(q "$PG" 'SELECT count(*) FROM samples')" = 11 ] || fail "$(q "$PG" 'SELECT count(*) FROM samples') samples, not 4 + 4 + 3"
# Exactly what SQLite holds: the same samples' values, outcome and tails.
sqlite3 -separator '|' a.db "SELECT r.uid, s.seq, s.outcome, s.stdout_tail, v.metric, CAST(v.value AS INTEGER) FROM samples s JOIN runs r ON r.id = s.run_id JOIN sample_values v ON v.sample_id = s.id WHERE v.metric = 'wall_ns' ORDER BY 1, 2" >sqlite.txt
q "$PG" "SELECT r.uid || '|' || s.seq || '|' || s.outcome || '|' || convert_from(s.stdout_tail, 'UTF8') || '|' || v.metric || '|' || v.value::bigint FROM samples s JOIN runs r ON r.id = s.run_id JOIN sample_values v ON v.sample_id = s.id WHERE v.metric = 'wall_ns' AND r.uid IN ($(sqlite3 a.db "SELECT group_concat(quote(uid)) FROM runs")) ORDER BY r.uid, s.seq" >pg.txt
diff sqlite.txt pg.txt >/dev/null || fail "pushed samples differ: $(diff sqlite.txt pg.txt | head -5)"
"$TARE" push --to "$PG" --store a.db --since 2026-13-01 >/dev/null 2>err.txt
[ $? = 2 ] || fail "--since with a bad date did not exit 2"

# 4. The server restarts while a run is storing samples: every sample still lands, once.
PG=$(schema restart)
"$TARE" run --store "$PG" --samples 400 --warmup 0 --no-git -- /bin/sleep 0.005 >restart.out 2>restart.err &
pid=$!
sleep 1.5
"$TARE_TEST_PG_CTL" restart
wait $pid || fail "the run across a restart exited $?: $(tail -3 restart.err)"
[ "$(q "$PG" 'SELECT count(*)::text || count(DISTINCT seq)::text FROM samples')" = 400400 ] ||
  fail "after a restart: $(q "$PG" 'SELECT count(*), count(DISTINCT seq) FROM samples') samples/distinct"

# 5. Two jobs push the same 12 runs at once, two runs per transaction (TARE_COPY_BATCH_SAMPLES=6):
# a batch that meets a run the other job committed is refused by the unique uid, written again
# run by run, and skips it. Both succeed; every run and sample is there once. (Whether the two
# interleave depends on timing; by hand, pushing 100 runs twice at once split them 25/75 and
# 50/50, and both succeeded.)
for i in $(seq 12); do
  "$TARE" run --store same.db --samples 2 --no-git -- /bin/echo "$i" >/dev/null 2>&1 || fail "run $i into same.db"
done
PG=$(schema same_runs)
"$TARE" runs --store "$PG" >/dev/null 2>&1  # creates the schema before the race
TARE_COPY_BATCH_SAMPLES=6 "$TARE" push --to "$PG" --store same.db >push1.out 2>push1.err &
p1=$!
TARE_COPY_BATCH_SAMPLES=6 "$TARE" push --to "$PG" --store same.db >push2.out 2>push2.err &
p2=$!
wait $p1 || fail "the first of two concurrent pushes exited $?: $(tail -2 push1.err)"
wait $p2 || fail "the second of two concurrent pushes exited $?: $(tail -2 push2.err)"
[ "$(q "$PG" 'SELECT count(*)::text || count(DISTINCT uid)::text FROM runs')" = 1212 ] ||
  fail "two concurrent pushes: $(q "$PG" 'SELECT count(*), count(DISTINCT uid) FROM runs') runs/distinct"
[ "$(q "$PG" 'SELECT count(*) FROM samples')" = 36 ] || fail "two concurrent pushes: $(q "$PG" 'SELECT count(*) FROM samples') samples"
echo "two concurrent pushes: $(cat push1.out) / $(cat push2.out)"

# 6. Issue 48, item 6: the server goes away mid-`tare ab` for longer than tare waits for it (60 s):
# the error keeps its advice to resume (the report's own error replaced it), the cohort is marked
# interrupted once the server is back (it was left `running`), and --resume finishes it.
PG=$(schema outage)
cp /bin/sleep base_sleep; cp /bin/sleep head_sleep
ab=(ab --store "$PG" --base ./base_sleep --head ./head_sleep --no-git)
"$TARE" "${ab[@]}" -- 0.2 >outage.out 2>outage.err &
pid=$!
for _ in $(seq 100); do
  [ "$(q "$PG" 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)" -ge 3 ] && break
  sleep 0.1
done
"$TARE_TEST_PG_CTL" stop
sleep 63
"$TARE_TEST_PG_CTL" start
wait $pid
status=$?
[ $status -ne 0 ] || fail "tare ab across a 63 s outage exited 0"
grep -q -- "--resume" outage.err || fail "the error lost its advice to resume: $(tail -3 outage.err)"
[ "$(q "$PG" 'SELECT state FROM ab_cohorts')" = interrupted ] ||
  fail "after the outage the cohort is '$(q "$PG" 'SELECT state FROM ab_cohorts')', not interrupted"
"$TARE" "${ab[@]}" --resume -- 0.2 >resume.out 2>resume.err
status=$?
[ $status -le 3 ] || fail "--resume after the outage exited $status: $(tail -3 resume.err)"
[ "$(q "$PG" 'SELECT state FROM ab_cohorts')" = complete ] ||
  fail "after --resume the cohort is '$(q "$PG" 'SELECT state FROM ab_cohorts')', not complete"

[ $failures = 0 ] && echo "postgres_e2e: all cases passed"
exit $((failures > 0))
