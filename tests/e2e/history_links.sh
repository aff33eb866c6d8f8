#!/usr/bin/env bash
# No history file is appended to or locked through a symbolic link (as --events, e2e/events_symlink):
# `report --append-history` where the machine's .jsonl is a link to another file, or its .lock a
# dangling link, exits 2 naming the link; the file linked to is left as it was, a dangling link's
# target never created. `history ack` likewise where ACKNOWLEDGED.log is a link.
# Runs beside other tests: it appends synthetic runs, measures nothing.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
RUNS="$WORK/runs"
HISTORY="$WORK/history"
FILE="$HISTORY/cpu-test-machine-2t.jsonl"
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$RUNS" --runs 20 --step copy:10:20 >/dev/null
"$PERFGATE" report "$RUNS/run-000.json" --history "$HISTORY" --append-history >/dev/null 2>&1 ||
  { echo "FAIL: appending run 0"; exit 1; }

: >"$WORK/outside.jsonl"  # an empty history elsewhere, which an append through the link would grow
mv "$FILE" "$WORK/kept.jsonl"
ln -s "$WORK/outside.jsonl" "$FILE"
out="$("$PERFGATE" report "$RUNS/run-001.json" --history "$HISTORY" --append-history 2>&1)"
rc=$?
{ [ "$rc" = 2 ] && grep -q "$FILE is a symbolic link" <<<"$out"; } || bad "a history file that is a link: exit $rc: $out"
[ ! -s "$WORK/outside.jsonl" ] || bad "the append went through the link into $WORK/outside.jsonl"
rm "$FILE" && mv "$WORK/kept.jsonl" "$FILE"

ln -s "$WORK/made-by-lock" "$FILE.lock"
out="$("$PERFGATE" report "$RUNS/run-001.json" --history "$HISTORY" --append-history 2>&1)"
rc=$?
{ [ "$rc" = 2 ] && grep -q "$FILE.lock is a symbolic link" <<<"$out"; } || bad "a lock that is a dangling link: exit $rc: $out"
[ ! -e "$WORK/made-by-lock" ] || bad "the dangling lock's target was created"
rm "$FILE.lock"

for i in $(seq -f '%03g' 1 19); do
  "$PERFGATE" report "$RUNS/run-$i.json" --history "$HISTORY" --append-history >/dev/null 2>&1 || bad "appending run $i"
done
id="$("$PERFGATE" history --history "$HISTORY" --changes 2>&1 | grep -o 'cp-[0-9a-f]\{12\}\|drift-[0-9a-f]\{12\}' | head -1)"
if [ -z "$id" ]; then
  echo "(no change point in the synthetic history: history ack not tried)"
else
  : >"$WORK/ack-target"  # an empty log elsewhere
  ln -s "$WORK/ack-target" "$HISTORY/ACKNOWLEDGED.log"
  out="$("$PERFGATE" history ack "$id" --by ann --reason wanted --history "$HISTORY" 2>&1)"
  rc=$?
  { [ "$rc" = 2 ] && grep -q "ACKNOWLEDGED.log is a symbolic link" <<<"$out"; } || bad "ACKNOWLEDGED.log a link: exit $rc: $out"
  [ ! -s "$WORK/ack-target" ] || bad "the ack went through the link"
fi
[ "$fail" = 0 ] && echo OK
exit $fail
