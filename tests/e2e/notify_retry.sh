#!/usr/bin/env bash
# 5xx, 429 with Retry-After and a connection reset are retried; each alert reaches the
# receiver exactly once, signed, and leaves the outbox.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

ID="$(alert_id_of "$FIXTURE")"
[ -n "$ID" ] || fail "no alert id in the dry run"

start_receiver --script "500,503,200"
run_notify first "$FIXTURE"
expect_rc 0 "delivery after 500 and 503"
[ "$(count_lines "$REQUESTS" "$ID")" = 3 ] || fail "expected 3 attempts for $ID"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "expected exactly one accepted delivery of $ID"
[ "$(outbox_count)" = 0 ] || fail "the outbox still holds alerts"
grep -q "127.0.0.1" "$WORK/first.err" || fail "the log names no host"

# A later notify has nothing left to send: still exactly one delivery.
run_notify again
expect_rc 0 "notify with an empty outbox"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "$ID was delivered twice"

# 429 with Retry-After, then a reset connection, then success, for another run.
sed 's/20240501T120000Z-4f3a9c/20240502T120000Z-7b7b7b/' "$FIXTURE" >"$WORK/run2.json"
ID2="$(alert_id_of "$WORK/run2.json")"
[ "$ID2" != "$ID" ] || fail "two runs share an alert id"
stop_receiver
start_receiver --port "$PORT" --script "429:1,reset,200"
run_notify second "$WORK/run2.json"
expect_rc 0 "delivery after 429 and a reset"
[ "$(count_lines "$REQUESTS" "$ID2" "429:1")" = 1 ] || fail "no 429 answered"
[ "$(count_lines "$REQUESTS" "$ID2" "reset")" = 1 ] || fail "no reset answered"
[ "$(count_lines "$RECORD" "$ID2")" = 1 ] || fail "expected exactly one accepted delivery of $ID2"
grep -q "retry" "$WORK/second.err" || fail "retries are not logged"

# The accepted body is the generic schema with the run's deltas.
python3 - "$RECORD" "$ID" <<'PY' || fail "the delivered payload is not the expected generic alert"
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["id"] == sys.argv[2]]
body = json.loads(entries[0]["body"])
assert body["schema"] == "perfgate.alert.v1", body["schema"]
assert body["id"] == sys.argv[2]
assert body["status"] == "regressed"
assert body["summary"]["regressed"] == 1 and body["summary"]["pass"] == 1 and body["summary"]["improved"] == 1
assert body["deltas"][0]["case"].startswith("copy/") and body["deltas"][0]["verdict"] == "regressed"
PY
check_no_secrets
echo "ok"
