#!/usr/bin/env bash
# A receiver slower than the client's timeout: the attempts time out, the alert is queued
# (exit 3), and the next notify delivers it once the receiver answers.
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

# Generous timeout for the delivery itself: a loaded machine must not flake this.
export PERFGATE_WEBHOOK_TIMEOUT_S=60
run_notify recovered
expect_rc 0 "notify after the receiver recovered"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "$ID not delivered exactly once"
[ "$(outbox_count)" = 0 ] || fail "the outbox is not empty"
check_no_secrets
echo "ok"
