#!/usr/bin/env bash
# Another process holds the outbox lock: notify writes the new alert to the outbox before it
# waits (a SIGTERM while waiting loses nothing), and waits no longer than its time budget
# (exit 3, the alert left for the next call). Once the lock is free, both alerts go out.
# Runs beside other tests: it waits on a lock; its time limits are 6x the budget they check.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

start_receiver
mkdir -p "$PERFGATE_OUTBOX"
# One process holds the flock (a `flock FILE sleep` would leave it with the sleep it starts).
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(300)' "$PERFGATE_OUTBOX/.lock" &
HOLDER=$!
release() { kill "$HOLDER" 2>/dev/null || true; wait "$HOLDER" 2>/dev/null || true; stop_receiver; }
trap release EXIT
python3 - "$PERFGATE_OUTBOX/.lock" <<'PY' || fail "the holder did not take the lock"
import fcntl, sys, time
for _ in range(600):  # until the holder has the lock
    with open(sys.argv[1], "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.exit(0)
    time.sleep(0.1)
sys.exit(1)
PY

# 1. A 5 s budget: back well within budget + slack, exit 3, the alert in the outbox.
ID="$(alert_id_of "$FIXTURE")"
start=$(date +%s)
PERFGATE_WEBHOOK_BUDGET_S=5 run_notify budget "$FIXTURE"
elapsed=$(($(date +%s) - start))
echo "notify with a 5 s budget returned after ${elapsed} s, exit $RC"
expect_rc 3 "notify while another process holds the outbox lock"
[ "$elapsed" -lt 30 ] || fail "notify waited ${elapsed} s for the lock with a 5 s budget"
grep -q "locked" "$WORK/budget.err" || fail "notify does not say the outbox was locked"
[ -f "$PERFGATE_OUTBOX/$ID.json" ] || fail "the alert is not in the outbox"

# 2. A long budget: the alert is on disk while notify still waits; SIGTERM loses nothing.
sed 's/20240501T120000Z-4f3a9c/20240502T120000Z-0e0e0e/' "$FIXTURE" >"$WORK/run2.json"
ID2="$(alert_id_of "$WORK/run2.json")"
PERFGATE_WEBHOOK_BUDGET_S=600 "$PERFGATE" notify "$WORK/run2.json" >"$WORK/term.out" 2>"$WORK/term.err" &
NOTIFY=$!
for _ in $(seq 1 600); do
  [ -f "$PERFGATE_OUTBOX/$ID2.json" ] && break
  sleep 0.1
done
[ -f "$PERFGATE_OUTBOX/$ID2.json" ] || fail "the alert was not written before waiting for the lock"
kill -0 "$NOTIFY" 2>/dev/null || fail "notify did not wait for the lock"
kill -TERM "$NOTIFY"
wait "$NOTIFY" 2>/dev/null || true
[ -f "$PERFGATE_OUTBOX/$ID2.json" ] || fail "SIGTERM while waiting for the lock lost the alert"

# 3. The lock released: the next call delivers both.
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null || true
run_notify flush
expect_rc 0 "notify once the lock is free"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "the first alert was not delivered once"
[ "$(count_lines "$RECORD" "$ID2")" = 1 ] || fail "the second alert was not delivered once"
check_no_secrets
echo "ok"
