#!/usr/bin/env bash
# `tare merge` end to end on real SQLite stores made by real `tare run`s, as a user runs it: no
# duplicates (merging twice adds nothing), each run's host kept, a clear error and nothing written
# for an input that is not a store, OUT left whole when a merge stops half-way.
#
#   usage: merge_e2e.sh TARE
set -u
TARE=$(realpath "$1")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tare-merge-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
q() { sqlite3 "$1" "$2"; }

"$TARE" run --store a.db --samples 3 --no-git --tag shard=1 -- /bin/true >/dev/null 2>&1 || fail "run into a.db"
"$TARE" run --store a.db --samples 2 --no-git --tag shard=1 -- /bin/echo a >/dev/null 2>&1 || fail "second run into a.db"
"$TARE" run --store b.db --samples 4 --no-git --tag shard=2 -- /bin/echo b >/dev/null 2>&1 || fail "run into b.db"
# Make b.db's run look like another host's, as a shard on another CI machine would be: a hard key
# of its fingerprint changed, and the digests, which tare recomputes from the keys when it reads a
# store from outside (issue 23, item 3), cleared.
q b.db "UPDATE runs SET fingerprint = json_remove(json_set(fingerprint, '\$.keys[' ||
  (SELECT key FROM json_each(runs.fingerprint, '\$.keys') WHERE json_extract(value, '\$.hard') = 1 LIMIT 1) ||
  '].value', 'another host'), '\$.hard_digest'), fingerprint_digest = ''"

"$TARE" merge all.db a.db b.db >out.txt 2>err.txt || fail "merge: exit $? ($(cat err.txt))"
grep -q "^3 runs added" out.txt || fail "merge said: $(cat out.txt)"
[ "$(q all.db 'SELECT count(*) FROM runs')" = 3 ] || fail "all.db has $(q all.db 'SELECT count(*) FROM runs') runs"
# 1 warm-up + 3, 1 + 2, 1 + 4 samples
[ "$(q all.db 'SELECT count(*) FROM samples')" = 12 ] || fail "all.db has $(q all.db 'SELECT count(*) FROM samples') samples"
[ "$(q all.db "SELECT count(DISTINCT fingerprint_digest) FROM runs WHERE fingerprint_digest <> ''")" = 2 ] ||
  fail "host of b.db's run not recomputed from its keys: $(q all.db 'SELECT fingerprint_digest FROM runs')"
[ "$(q all.db 'SELECT group_concat(uid) FROM (SELECT uid FROM runs ORDER BY uid)')" = \
  "$(sqlite3 a.db 'ATTACH "b.db" AS b; SELECT group_concat(uid) FROM (SELECT uid FROM runs UNION ALL SELECT uid FROM b.runs ORDER BY uid)')" ] ||
  fail "uids differ between the inputs and all.db"
[ "$(q all.db "SELECT count(*) FROM run_tags WHERE key = 'shard'")" = 3 ] || fail "tags not kept"

# Twice: nothing added.
"$TARE" merge all.db a.db b.db >out.txt 2>err.txt || fail "second merge: exit $?"
grep -q "^0 runs added to all.db, 3 were already there" out.txt || fail "second merge said: $(cat out.txt)"
[ "$(q all.db 'SELECT count(*) FROM samples')" = 12 ] || fail "second merge duplicated samples"

# Reading commands see the merged runs, selectable by uid.
uid=$(q b.db 'SELECT uid FROM runs')
"$TARE" export --store all.db --run "uid:${uid:0:8}" >export.json 2>err.txt || fail "export uid: ($(cat err.txt))"
grep -q '/bin/echo' export.json || fail "export of uid:${uid:0:8} is not b.db's run"

# Bad inputs: exit 2, a message saying what is wrong, OUT not even created.
echo "not a database" >notes.txt
"$TARE" merge new.db a.db notes.txt >out.txt 2>err.txt
status=$?
[ $status = 2 ] || fail "non-store input: exit $status"
grep -q "cannot merge 'notes.txt'" err.txt || fail "non-store input said: $(cat err.txt)"
[ ! -e new.db ] || fail "new.db was created although an input was refused"
[ "$(cat notes.txt)" = "not a database" ] || fail "the refused input was changed"
sqlite3 other.db "CREATE TABLE invoices (id INTEGER)"
"$TARE" merge new.db other.db >out.txt 2>err.txt
[ $? = 2 ] || fail "foreign SQLite input: exit not 2"
grep -q "not a tare store" err.txt || fail "foreign SQLite input said: $(cat err.txt)"
"$TARE" merge new.db missing.db >out.txt 2>err.txt
[ $? = 2 ] || fail "missing input: exit not 2"
grep -q "no store at 'missing.db'" err.txt || fail "missing input said: $(cat err.txt)"
"$TARE" merge all.db all.db >out.txt 2>err.txt
[ $? = 2 ] || fail "OUT as its own input: exit not 2"

# Half-way: c.db's second run is damaged (a set-aside sample that is not one of its samples), so the
# merge stops there; OUT keeps c.db's first run whole and nothing of the second, and says so.
"$TARE" run --store c.db --samples 2 --no-git -- /bin/true >/dev/null 2>&1 || fail "run into c.db"
"$TARE" run --store c.db --samples 2 --no-git -- /bin/echo c >/dev/null 2>&1 || fail "run into c.db"
q c.db "INSERT INTO ab_discarded_samples (sample_id, run_id, reason) VALUES (999, 2, 'damaged')" 2>/dev/null ||
  q c.db "PRAGMA foreign_keys=OFF; INSERT INTO ab_discarded_samples (sample_id, run_id, reason) VALUES (999, 2, 'damaged')"
cp all.db before.db
"$TARE" merge all.db c.db >out.txt 2>err.txt
status=$?
[ $status = 2 ] || fail "damaged input: exit $status"
grep -q "1 runs added, 0 already in 'all.db' before run 2 failed" err.txt || fail "damaged input said: $(cat err.txt)"
[ "$(q all.db 'SELECT count(*) FROM runs')" = 4 ] || fail "all.db has $(q all.db 'SELECT count(*) FROM runs') runs after the failed merge"
[ "$(q all.db 'SELECT count(*) FROM samples')" = 15 ] || fail "all.db has $(q all.db 'SELECT count(*) FROM samples') samples after the failed merge"
[ "$(q all.db "SELECT count(*) FROM runs WHERE uid = '$(q c.db 'SELECT uid FROM runs WHERE id = 2')'")" = 0 ] ||
  fail "the failed run is partly in all.db"

# Several batches (TARE_COPY_BATCH_SAMPLES=6: two runs of 3 samples, a warmup and two measured, per
# transaction), read by the reader thread while the writer writes: 5 runs arrive whole. Then run 4 of 5 is damaged: its batch
# (runs 3 and 4) fails, is written again run by run, and OUT keeps runs 1-3, nothing of 4 or 5.
for i in 1 2 3 4 5; do
  "$TARE" run --store d.db --samples 2 --no-git -- /bin/echo "$i" >/dev/null 2>&1 || fail "run $i into d.db"
done
TARE_COPY_BATCH_SAMPLES=6 "$TARE" merge batches.db d.db >out.txt 2>err.txt || fail "batched merge: exit $? ($(cat err.txt))"
grep -q "^5 runs added" out.txt || fail "batched merge said: $(cat out.txt)"
[ "$(q batches.db 'SELECT count(*) FROM samples')" = 15 ] || fail "batches.db has $(q batches.db 'SELECT count(*) FROM samples') samples"
[ "$(q batches.db 'SELECT group_concat(uid) FROM (SELECT uid FROM runs ORDER BY id)')" = \
  "$(q d.db 'SELECT group_concat(uid) FROM (SELECT uid FROM runs ORDER BY id)')" ] || fail "batched merge changed the runs' order"
q d.db "PRAGMA foreign_keys=OFF; INSERT INTO ab_discarded_samples (sample_id, run_id, reason) VALUES (999, 4, 'damaged')"
TARE_COPY_BATCH_SAMPLES=6 "$TARE" merge partial.db d.db >out.txt 2>err.txt
status=$?
[ $status = 2 ] || fail "damaged run 4 of 5: exit $status"
grep -q "3 runs added, 0 already in 'partial.db' before run 4 failed" err.txt || fail "damaged run 4 of 5 said: $(cat err.txt)"
[ "$(q partial.db 'SELECT count(*) FROM runs')" = 3 ] || fail "partial.db has $(q partial.db 'SELECT count(*) FROM runs') runs, not runs 1-3"
[ "$(q partial.db 'SELECT count(*) FROM samples')" = 9 ] || fail "partial.db has $(q partial.db 'SELECT count(*) FROM samples') samples"
[ "$(q partial.db "SELECT count(*) FROM runs WHERE uid = '$(q d.db 'SELECT uid FROM runs WHERE id = 4')'")" = 0 ] ||
  fail "the failed run 4 is partly in partial.db"

# Ctrl-C (issue 27, item 19): the merge stops after the batch in flight and says what it committed.
# Another process holds OUT's write lock for 3 s, so the first batch (one run: TARE_COPY_BATCH_SAMPLES=3)
# waits in SQLite's busy handler while SIGINT arrives; it then commits, and the merge stops there.
"$TARE" run --store intr.db --samples 1 --no-git -- /bin/true >/dev/null 2>&1 || fail "run into intr.db"
(echo "BEGIN IMMEDIATE;"; sleep 3; echo "COMMIT;") |
  sqlite3 intr.db &
holder=$!
sleep 0.5
TARE_COPY_BATCH_SAMPLES=3 "$TARE" merge intr.db d.db >out.txt 2>err.txt &
merger=$!
sleep 1.5
kill -INT $merger
wait $merger
status=$?
wait $holder
[ $status = 130 ] || fail "interrupted merge: exit $status ($(cat err.txt))"
grep -q "tare merge: interrupted: d.db: 1 runs added to 'intr.db' and committed (0 already there); the rest were not copied" err.txt ||
  fail "interrupted merge said: $(cat err.txt)"
[ "$(q intr.db 'SELECT count(*) FROM runs')" = 2 ] || fail "intr.db has $(q intr.db 'SELECT count(*) FROM runs') runs, not its own and one merged"

[ $failures = 0 ] && echo "merge_e2e: all cases passed"
exit $((failures > 0))
