#!/usr/bin/env bash
# `history ack` writes only what accepts something: a --by or --reason that is not UTF-8 is a
# clear error naming the option (never an internal JSON exception), an id the history does not
# hold and a --history folder that does not exist are errors (exit 2) and nothing is written or
# created; the real id is accepted. A reader waiting on the history's lock past its budget names
# the lock's holder as a reader or writer of the history, never a pid that is no longer running.
# Runs beside other tests: it judges synthetic runs and waits 2 s on a lock, measures nothing.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
HISTORY="$WORK/history"
THRESHOLDS="$PERFGATE_SOURCE_DIR/thresholds"
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$WORK/runs" --runs 40 --step copy:30:10
for f in "$WORK"/runs/run-*.json; do
  "$PERFGATE" report "$f" --history "$HISTORY" --append-history >/dev/null 2>&1 || { echo "FAIL: append $f"; exit 1; }
done
CP="$("$PERFGATE" history --history "$HISTORY" --thresholds "$THRESHOLDS" --changes --json 2>/dev/null |
  python3 -c 'import json,sys; print([c["id"] for k in json.load(sys.stdin)["cases"] for c in k["changes"]][0])')" ||
  { echo "FAIL: no change point to acknowledge"; exit 1; }

# expect RC PATTERN -- ARGS...: perfgate history ack ARGS exits RC and says PATTERN.
expect() {
  local rc="$1" pattern="$2" out got; shift 3
  out="$("$PERFGATE" history ack "$@" 2>&1)"
  got=$?
  if [ "$got" != "$rc" ] || ! grep -qE -- "$pattern" <<<"$out" || grep -q "internal error" <<<"$out"; then
    bad "history ack $*: exit $got (want $rc, saying /$pattern/): $out"
  else
    echo "ok: $(head -1 <<<"$out")"
  fi
}
expect 2 "by: is not valid UTF-8" -- "$CP" --by "$(printf 'Ad\xe9le')" --reason r --history "$HISTORY" \
  --thresholds "$THRESHOLDS"
expect 2 "reason: is not valid UTF-8" -- "$CP" --by ada --reason "$(printf '\xff')" --history "$HISTORY" \
  --thresholds "$THRESHOLDS"
expect 2 "cp-000000000000 is no change point or drift of the history" -- cp-000000000000 --by ada --reason r \
  --history "$HISTORY" --thresholds "$THRESHOLDS"
[ ! -e "$HISTORY/ACKNOWLEDGED.log" ] || bad "a refused acknowledgement wrote ACKNOWLEDGED.log"
expect 2 "is not a folder" -- "$CP" --by ada --reason r --history "$WORK/histroy" --thresholds "$THRESHOLDS"
[ ! -e "$WORK/histroy" ] || bad "a mistyped --history folder was created"
expect 0 "acknowledged $CP by ada" -- "$CP" --by ada --reason "wanted" --history "$HISTORY" --thresholds "$THRESHOLDS"
[ "$(wc -l <"$HISTORY/ACKNOWLEDGED.log")" = 1 ] || bad "the acknowledgement was not logged once"

# The history's lock held by a process that wrote no id (flock(1)-like), the file still naming
# an earlier holder that has exited: the reader's error names neither.
FILE="$HISTORY/cpu-test-machine-2t.jsonl"
python3 - "$FILE.lock" "$PERFGATE" "$HISTORY" <<'PY' || fail=1
import fcntl, os, subprocess, sys
lock, perfgate, history = sys.argv[1:]
gone = subprocess.Popen(["true"]); gone.wait()  # a pid that has exited
with open(lock, "w") as f:
    f.write(f"pid {gone.pid}\n"); f.flush()
    fcntl.flock(f, fcntl.LOCK_EX)
    # The reader gives up after its budget, 60 s but 2 s here (the same wait and error, sooner);
    # it waits on the lock, using no CPU.
    env = dict(os.environ, PERFGATE_TEST_HISTORY_LOCK_WAIT_MS="2000")
    p = subprocess.run([perfgate, "history", "copy/*", "--history", history], capture_output=True, text=True,
                       timeout=300, env=env)
err = p.stderr.strip()
print(f"reader: exit {p.returncode}: {err[:300]}")
ok = p.returncode == 2 and "locked by another reader or writer of this history" in err and "pid" not in err
if not ok:
    print("FAIL: the reader's lock error should name a reader or writer of the history and no pid")
sys.exit(0 if ok else 1)
PY
exit $fail
