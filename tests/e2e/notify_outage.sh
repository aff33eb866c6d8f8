#!/usr/bin/env bash
# While the receiver is down nothing is lost: notify exits 3 and the outbox holds the alert;
# the next notify (without a results file) delivers it and empties the outbox.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

ID="$(alert_id_of "$FIXTURE")"
start_receiver
stop_receiver   # the port is known and nothing listens on it now

export PERFGATE_WEBHOOK_ATTEMPTS=2
run_notify down "$FIXTURE"
expect_rc 3 "notify with the receiver down"
[ "$(outbox_count)" = 1 ] || fail "the outbox should hold one alert"
[ -f "$PERFGATE_OUTBOX/$ID.json" ] || fail "the outbox file is not named by the alert id"
grep -q "outbox" "$WORK/down.err" || fail "the outbox is not mentioned"

# Still down: a second run's alert joins the queue, the first stays.
sed 's/20240501T120000Z-4f3a9c/20240503T120000Z-0c0c0c/' "$FIXTURE" >"$WORK/run2.json"
ID2="$(alert_id_of "$WORK/run2.json")"
run_notify still_down "$WORK/run2.json"
expect_rc 3 "second notify with the receiver down"
[ "$(outbox_count)" = 2 ] || fail "the outbox should hold two alerts"

start_receiver --port "$PORT"
run_notify recovered
expect_rc 0 "notify after recovery"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "$ID not delivered exactly once"
[ "$(count_lines "$RECORD" "$ID2")" = 1 ] || fail "$ID2 not delivered exactly once"
[ "$(outbox_count)" = 0 ] || fail "the outbox is not empty after delivery"
# Oldest first.
python3 - "$RECORD" "$ID" "$ID2" <<'PY' || fail "queued alerts were not sent oldest first"
import json, sys
ids = [json.loads(l)["id"] for l in open(sys.argv[1])]
assert ids.index(sys.argv[2]) < ids.index(sys.argv[3]), ids
PY
check_no_secrets
echo "ok"
