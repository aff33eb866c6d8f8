#!/usr/bin/env bash
# A receiver slower than the client's timeout: the attempts time out, the alert is queued
# (exit 3), and the next notify delivers it once the receiver answers.
# Runs beside other tests: it waits on a slow receiver; its time limit is 6x the timeouts it checks.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

ID="$(alert_id_of "$FIXTURE")"
start_receiver --script "slow:30,slow:30"
export PERFGATE_WEBHOOK_TIMEOUT_S=2 PERFGATE_WEBHOOK_ATTEMPTS=2
start_s=$(date +%s)
run_notify slow "$FIXTURE"
elapsed_s=$(( $(date +%s) - start_s ))
expect_rc 3 "notify against a slow receiver"
[ "$elapsed_s" -lt 25 ] || fail "notify waited ${elapsed_s} s: the timeout did not hold"
[ "$(count_lines "$REQUESTS" "$ID")" = 2 ] || fail "expected 2 timed-out attempts"
[ "$(count_lines "$RECORD" "$ID")" = 0 ] || fail "a timed-out attempt was recorded as delivered"
[ "$(outbox_count)" = 1 ] || fail "the timed-out alert is not queued"
grep -qi "timed out\|timeout" "$WORK/slow.err" || fail "the timeout is not reported"

# A receiver that hangs on every attempt costs at most the call's budget, attempts shortened to
# fit it (4 attempts x 15 s would be a minute); the alert stays queued.
python3 - "$PORT" <<'PY'
import json, sys, urllib.request
body = json.dumps({"script": ["slow:60"]}).encode()
urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/_control", data=body), timeout=60)
PY
start_s=$(date +%s)
PERFGATE_WEBHOOK_TIMEOUT_S=15 PERFGATE_WEBHOOK_ATTEMPTS=4 PERFGATE_WEBHOOK_BUDGET_S=4 run_notify budget
elapsed_s=$(( $(date +%s) - start_s ))
expect_rc 3 "notify against a hanging receiver, with a budget"
[ "$elapsed_s" -lt 12 ] || fail "notify took ${elapsed_s} s with a 4 s budget"
[ "$(outbox_count)" = 1 ] || fail "the alert is not queued after the budget ran out"

# Generous timeout for the delivery itself: a loaded machine must not flake this.
export PERFGATE_WEBHOOK_TIMEOUT_S=60
run_notify recovered
expect_rc 0 "notify after the receiver recovered"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "$ID not delivered exactly once"
[ "$(outbox_count)" = 0 ] || fail "the outbox is not empty"
check_no_secrets
echo "ok"
