#!/usr/bin/env bash
# --shard K/N end to end through the real binary (docs/scale-out.md):
#   1. `tare ab --instrument sim` (the exact plan: one block per cell) on a Google Benchmark binary with 9 cells, unsharded and as 4
#      shards into 4 SQLite files, `tare merge`d: `tare shards` shows 4/4 and, per cell, the same
#      verdicts and sim.Ir medians as the unsharded campaign; with shard 3's file left out, merge and
#      the view name the missing shard; a shard whose split disagrees is an error naming it.
#   2. The same 4 shard stores pushed to PostgreSQL (`tare push --to postgresql://...`, under
#      with_postgres.sh as the other PostgreSQL tests) give the same view (skipped without a server).
#   3. `tare run --shard K/N` on the binary: the union of the 4 shards is the whole list, no overlap;
#      --shard-weights records the run it weighed by; bad K/N is exit 2 before anything runs.
#      A sharded run's bundle replays only its part.
#   4. --resume of a sharded campaign continues the cohort of its own shard.
#
#   usage: shard_e2e.sh TARE SHARD_BENCH
set -u
TARE=$(realpath "$1")
BENCH=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tare-shard-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The per-cell rows of a `tare shards --json` view, one line each: cell|head|metric|shard|verdict|
# base_median|head_median (nlohmann writes an object's keys sorted; "verdict" is the last of a row).
cell_rows() {
  awk -F': ' '
    /"base_median":/ { b = $2 } /"cell":/ { c = $2 } /"head":/ { h = $2 } /"head_median":/ { hm = $2 }
    /"metric":/ { m = $2 } /"shard": [0-9]/ { s = $2 }
    /"verdict":/ { v = $2; line = c "|" h "|" m "|" s "|" v "|" b "|" hm; gsub(/[",]/, "", line); print line }
  ' "$1" | sort
}
# The final verdicts of a store's ab runs (every shard's, or the unsharded campaign's), as the
# store keeps them: cell|head|metric|verdict|base_median|head_median.
final_verdicts() {
  sqlite3 -separator '|' "$1" "SELECT c.name, v.head, v.metric, v.verdict, v.base_median, v.head_median FROM ab_verdicts v
    JOIN ab_cells c ON c.run_id = v.run_id AND c.cell = v.cell WHERE v.final = 1 ORDER BY 1, 2, 3"
}

# 1. The campaign: base and head are the same program (copies), so every cell's change is 0. The
#    stores' directories have names of one length (st0 unsharded, st1..st4): the arm copies run from
#    <store dir>/bin/, and a path of another length moves the program's memory layout, which moves
#    some cells' instruction counts (BM_Fill/1024: 89 or 96 instructions per iteration under sim).
cp "$BENCH" base_bench
cp "$BENCH" head_bench
AB=(ab --base ./base_bench --head ./head_bench --instrument sim --no-gates --no-git)
cells=$("$BENCH" --benchmark_list_tests | wc -l)
[ "$cells" -ge 8 ] || fail "the fixture lists $cells benchmarks, fewer than 8"

mkdir -p st0 st1 st2 st3 st4 rep res  # a store is created only in a directory that exists
"$TARE" "${AB[@]}" --store st0/tare.db --quiet >full.out 2>full.err
status=$?
[ $status = 0 ] || [ $status = 3 ] || fail "unsharded campaign exited $status: $(tail -3 full.err)"
for k in 1 2 3 4; do
  "$TARE" "${AB[@]}" --shard $k/4 --store st$k/tare.db --quiet >s$k.out 2>s$k.err
  status=$?
  [ $status = 0 ] || [ $status = 3 ] || fail "shard $k/4 exited $status: $(tail -3 s$k.err)"
done
# Each shard measured its own part: together every cell once.
sharded_cells=0
for k in 1 2 3 4; do
  n=$(sqlite3 st$k/tare.db 'SELECT count(*) FROM ab_cells')
  [ "$n" -ge 2 ] || fail "shard $k/4 has $n cells"
  sharded_cells=$((sharded_cells + n))
  [ "$(sqlite3 st$k/tare.db 'SELECT shard || "/" || shard_count FROM run_shards')" = "$k/4" ] || fail "shard $k/4 not recorded"
done
[ $sharded_cells = "$cells" ] || fail "the 4 shards measured $sharded_cells cells, the campaign has $cells"
# One campaign: the same campaign id and group in every shard, the same whole assignment.
[ "$(for k in 1 2 3 4; do sqlite3 st$k/tare.db 'SELECT campaign_sha256 FROM ab_cohorts'; done | sort -u | wc -l)" = 1 ] ||
  fail "the shards have different campaign ids"
[ "$(for k in 1 2 3 4; do sqlite3 st$k/tare.db 'SELECT shard_group || assignment_sha256 || assignment FROM run_shards'; done | sort -u | wc -l)" = 1 ] ||
  fail "the shards recorded different groups or assignments"

"$TARE" merge all.db st1/tare.db st2/tare.db st3/tare.db st4/tare.db >merge.out 2>merge.err || fail "merge: $(cat merge.err)"
grep -q "^4 runs added" merge.out || fail "merge said: $(cat merge.out)"
grep -q "^shards: group [0-9a-f]\{12\} (tare ab): 4/4 shards, all present" merge.out || fail "merge's shard line: $(cat merge.out)"
"$TARE" shards --store all.db >view.txt 2>view.err || fail "shards on all.db exited $?: $(cat view.err)"
grep -q "4/4 shards present" view.txt || fail "view: $(head -3 view.txt)"
grep -q "missing" view.txt && fail "view names a missing shard: $(cat view.txt)"
"$TARE" shards --store all.db --json >view.json 2>view.err || fail "shards --json exited $?"
grep -q '"schema": "tare.shards/1"' view.json || fail "view.json: $(head -5 view.json)"
# Per cell: the shards' verdicts and sim.Ir medians equal the unsharded campaign's, row for row.
final_verdicts st0/tare.db >full_verdicts.txt
final_verdicts all.db >merged_verdicts.txt
[ -s full_verdicts.txt ] || fail "the unsharded campaign stored no final verdicts"
grep -q "|sim.Ir|" full_verdicts.txt || fail "no sim.Ir verdicts: $(head -3 full_verdicts.txt)"
diff full_verdicts.txt merged_verdicts.txt >/dev/null ||
  fail "sharded verdicts differ from the unsharded: $(diff full_verdicts.txt merged_verdicts.txt | head -6)"
cell_rows view.json >view_rows.txt
[ "$(wc -l <view_rows.txt)" = "$(wc -l <full_verdicts.txt)" ] ||
  fail "the view has $(wc -l <view_rows.txt) cell rows, the campaign $(wc -l <full_verdicts.txt)"
while IFS='|' read -r cell head metric verdict base head_median; do
  [ "$metric" = sim.Ir ] || continue
  grep -q "^$cell|$head|$metric|[1-4]|$verdict|$base|$head_median\$" view_rows.txt ||
    fail "the view's row for $cell $metric is not $verdict $base $head_median: $(grep "^$cell|" view_rows.txt)"
done <full_verdicts.txt
# Every row says its shard and host; no row is of two shards.
[ "$(grep -c '"fingerprint_digest"' view.json)" -gt "$(wc -l <view_rows.txt)" ] || fail "rows without their host"

# A shard left out: merge says which, the view names it and exits 1.
"$TARE" merge part.db st1/tare.db st2/tare.db st4/tare.db >merge.out 2>merge.err || fail "partial merge: $(cat merge.err)"
grep -q "3/4 shards, missing 3/4" merge.out || fail "partial merge's shard line: $(cat merge.out)"
"$TARE" shards --store part.db >part.txt 2>part.err
status=$?
[ $status = 1 ] || fail "view of a partial merge exited $status"
grep -q "3/4 shards present" part.txt || fail "partial view: $(head -3 part.txt)"
grep -q "missing: 3/4 (.* of $cells cells not measured" part.txt || fail "partial view does not name 3/4: $(cat part.txt)"
"$TARE" shards --store part.db --json >part.json
grep -A2 '"missing"' part.json | grep -q '^ *3$' || fail "part.json's missing: $(grep -A3 '"missing"' part.json)"

# A job that split the list another way (as if given other weights): the view says which, and the fix.
cp all.db disagree.db
sqlite3 disagree.db "UPDATE run_shards SET assignment_sha256 = '$(printf 'f%.0s' $(seq 64))' WHERE shard = 2"
"$TARE" shards --store disagree.db >disagree.txt 2>&1
status=$?
[ $status = 1 ] || fail "view of disagreeing shards exited $status"
grep -q "error: the shards' assignments disagree: .*2/4 split the list as ffffffffffff" disagree.txt ||
  fail "disagreement not named: $(cat disagree.txt)"
grep -q "same benchmarks, --filter and --shard-weights selector" disagree.txt || fail "disagreement without the fix"

# Hostile names are escaped: a campaign name with control bytes does not reach the terminal raw.
cp all.db hostile.db
sqlite3 hostile.db "UPDATE ab_cohorts SET campaign_name = 'evil' || char(27) || '[31mred'"
"$TARE" shards --store hostile.db >hostile.txt 2>&1 || fail "view of hostile.db exited $?"
grep -q "evil" hostile.txt || fail "hostile name not shown: $(head -2 hostile.txt)"
grep -q "$(printf '\033')" hostile.txt && fail "an escape byte reached the terminal: $(head -2 hostile.txt | od -c | head -3)"
# A group is chosen by its campaign's id.
"$TARE" shards --store all.db --group "$(sqlite3 all.db 'SELECT substr(campaign_sha256, 1, 8) FROM ab_cohorts LIMIT 1')" >g.txt ||
  fail "--group by campaign id exited $?"
grep -q "4/4 shards present" g.txt || fail "--group by campaign id: $(head -2 g.txt)"

# 2. PostgreSQL: the 4 shard stores pushed to one database give the same view.
if [ -x "$HERE/with_postgres.sh" ] && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  cat >pg.sh <<'PG'
#!/usr/bin/env bash
set -u
TARE=$1
for k in 1 2 3 4; do
  "$TARE" push --to "$TARE_TEST_PG" --store st$k/tare.db >push$k.out 2>push$k.err || { echo "push $k: $(cat push$k.err)"; exit 1; }
done
"$TARE" shards --store "$TARE_TEST_PG" --json >pg_view.json 2>pg.err || { echo "shards on PostgreSQL exited $?: $(cat pg.err)"; exit 1; }
"$TARE" shards --store "$TARE_TEST_PG" >pg_view.txt 2>pg.err || { echo "shards console on PostgreSQL: $(cat pg.err)"; exit 1; }
PG
  chmod +x pg.sh
  chmod -R a+rX "$WORK"
  "$HERE/with_postgres.sh" ./pg.sh "$TARE" >pg.log 2>&1
  status=$?
  if [ $status = 77 ]; then
    echo "shard_e2e: PostgreSQL part skipped: $(tail -1 pg.log)"
  elif [ $status != 0 ]; then
    fail "PostgreSQL part: $(tail -5 pg.log)"
  else
    cell_rows pg_view.json >pg_rows.txt
    diff view_rows.txt pg_rows.txt >/dev/null || fail "the PostgreSQL view differs: $(diff view_rows.txt pg_rows.txt | head -6)"
    grep -q "4/4 shards present" pg_view.txt || fail "PostgreSQL view: $(head -3 pg_view.txt)"
  fi
else
  echo "shard_e2e: PostgreSQL part skipped: no server installed (scripts/deps.sh)"
fi

# 3. tare run --shard: the union of the 4 shards is the whole list, each benchmark once.
for k in 1 2 3 4; do
  "$TARE" run --shard $k/4 --store run.db --samples 1 --warmup 0 --no-git "$BENCH" >run$k.out 2>run$k.err ||
    fail "run --shard $k/4 exited $?: $(tail -3 run$k.err)"
  grep -q "shard $k/4: [0-9]* of $cells benchmarks" run$k.err || fail "run --shard $k/4 said: $(tail -2 run$k.err)"
done
[ "$(sqlite3 run.db 'SELECT count(DISTINCT name) FROM benchmarks')" = "$cells" ] ||
  fail "the 4 runs measured $(sqlite3 run.db 'SELECT count(DISTINCT name) FROM benchmarks') of $cells benchmarks"
[ "$(sqlite3 run.db 'SELECT count(*) FROM benchmarks')" = "$cells" ] || fail "some benchmark was measured by two shards"
"$BENCH" --benchmark_list_tests | sort >listed.txt
sqlite3 run.db 'SELECT name FROM benchmarks ORDER BY name' >measured.txt
diff listed.txt measured.txt >/dev/null || fail "measured list differs from the binary's: $(diff listed.txt measured.txt | head -4)"
"$TARE" shards --store run.db >runview.txt || fail "shards on run.db exited $?: $(cat runview.txt)"
grep -q "tare run .* 4/4 shards present" runview.txt || fail "run view: $(head -2 runview.txt)"
# A sharded run's bundle replays its own part, and the replay is not one of the shards.
"$TARE" bundle --store run.db --run 2 -o shard2.tar.gz >/dev/null 2>bundle.err || fail "bundle of shard 2: $(cat bundle.err)"
"$TARE" replay shard2.tar.gz --store rep/tare.db >replay.out 2>replay.err || fail "replay of shard 2 exited $?: $(tail -3 replay.err)"
[ "$(sqlite3 rep/tare.db 'SELECT DISTINCT name FROM benchmarks ORDER BY name')" = "$(sqlite3 run.db 'SELECT name FROM benchmarks WHERE run_id = 2 ORDER BY name')" ] ||
  fail "the replay measured $(sqlite3 rep/tare.db 'SELECT group_concat(name) FROM benchmarks'), not shard 2's part"
[ "$(sqlite3 rep/tare.db "SELECT count(*) FROM run_shards r JOIN runs u ON u.id = r.run_id WHERE u.uid != '$(sqlite3 run.db 'SELECT uid FROM runs WHERE id = 2')'")" = 0 ] ||
  fail "the replay recorded a shard of its own"
# Weighted by a stored run: the run it weighed by is recorded.
uid=$(sqlite3 run.db 'SELECT uid FROM runs WHERE id = 1')
"$TARE" run --shard 1/4 --shard-weights "uid:$uid" --store run.db --samples 1 --warmup 0 --no-git "$BENCH" >w.out 2>w.err ||
  fail "run --shard-weights exited $?: $(tail -3 w.err)"
[ "$(sqlite3 run.db 'SELECT weights FROM run_shards ORDER BY run_id DESC LIMIT 1')" = "uid:$uid" ] || fail "weights source not recorded"
# Bad K/N: exit 2 before anything runs, nothing created.
for bad in 0/4 5/4 2/0 x; do
  "$TARE" run --shard "$bad" --store bad.db "$BENCH" >bad.out 2>bad.err
  status=$?
  [ $status = 2 ] || fail "--shard $bad: exit $status"
  grep -q -- "--shard '$bad'" bad.err || fail "--shard $bad said: $(cat bad.err)"
  [ ! -e bad.db ] || fail "--shard $bad created the store"
  "$TARE" "${AB[@]}" --shard "$bad" --store bad.db >bad.out 2>bad.err
  [ $? = 2 ] || fail "ab --shard $bad: not exit 2"
done
# More shards than benchmarks: the shards left empty say so (exit 2), before anything runs.
"$TARE" run --shard 12/12 --store bad.db "$BENCH" >bad.out 2>bad.err
status=$?
[ $status = 2 ] && grep -q "use at most $cells shards" bad.err || fail "an empty shard: exit $status, $(cat bad.err)"
[ ! -e bad.db ] || fail "an empty shard created the store"

# 4. --resume of a sharded campaign keeps its shard. Two shards share one store (as on a shared
#    PostgreSQL) and both are interrupted, shard 2 first; resuming shard 2 continues shard 2's cohort
#    (not the newer one of shard 1), and shard 1's stays interrupted.
RES=(ab --base ./base_bench --head ./head_bench --gbench-min-time 10ms --samples 6 --cap 6 --no-gates --no-git --store res/tare.db)
interrupt() {  # interrupt() K: start shard K/2, SIGINT once it has stored a few more samples
  local before pid
  before=$(sqlite3 res/tare.db 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)
  "$TARE" "${RES[@]}" --shard "$1/2" >res$1.out 2>res$1.err &
  pid=$!
  for _ in $(seq 600); do
    [ "$(sqlite3 res/tare.db 'SELECT count(*) FROM samples' 2>/dev/null || echo 0)" -ge $((before + 8)) ] && break
    sleep 0.1
  done
  kill -INT $pid
  wait $pid
  local status=$?
  [ $status = 130 ] || fail "shard $1/2 interrupted: exit $status ($(tail -2 res$1.err))"
}
interrupt 2
interrupt 1
"$TARE" "${RES[@]}" --shard 2/2 --resume >res.out 2>res.err
status=$?
[ $status = 0 ] || [ $status = 3 ] || fail "--resume --shard 2/2 exited $status: $(tail -3 res.err)"
grep -q "resuming cohort" res.err || fail "--resume --shard 2/2 did not resume: $(tail -3 res.err)"
[ "$(sqlite3 res/tare.db 'SELECT count(*) FROM ab_cohorts')" = 2 ] || fail "a resume started a new cohort"
[ "$(sqlite3 res/tare.db "SELECT s.shard || ':' || c.state FROM run_shards s JOIN ab_cohorts c ON c.run_id = s.run_id ORDER BY s.shard" | tr '\n' ' ')" = "1:interrupted 2:complete " ] ||
  fail "after resuming shard 2: $(sqlite3 res/tare.db "SELECT s.shard || ':' || c.state FROM run_shards s JOIN ab_cohorts c ON c.run_id = s.run_id")"
# Unsharded, the same campaign has nothing to resume: the interrupted cohort is shard 1's.
"$TARE" "${RES[@]}" --resume >res.out 2>res.err
[ $? = 2 ] && grep -q "no interrupted cohort" res.err || fail "an unsharded --resume took a shard's cohort: $(tail -2 res.err)"

[ $failures = 0 ] && echo "shard_e2e: all cases passed"
exit $((failures > 0))
