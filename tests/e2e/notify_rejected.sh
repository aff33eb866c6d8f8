#!/usr/bin/env bash
# A 400 is final: not retried, reported with the receiver's answer, kept aside (not resent).
# Bad input exits 2 and never shows the URL's path or query.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

ID="$(alert_id_of "$FIXTURE")"
start_receiver --script "400:invalid_payload"
run_notify rejected "$FIXTURE"
expect_rc 2 "notify answered 400"
[ "$(count_lines "$REQUESTS" "$ID")" = 1 ] || fail "a 400 was retried"
grep -q "invalid_payload" "$WORK/rejected.err" || fail "the receiver's answer is not reported"
grep -q "HTTP 400" "$WORK/rejected.err" || fail "the status is not reported"
[ "$(outbox_count)" = 0 ] || fail "a rejected alert stays in the send queue"
[ -f "$PERFGATE_OUTBOX/rejected/$ID.json" ] || fail "the rejected alert was not kept aside"
run_notify after_reject
expect_rc 0 "notify after a rejection"
[ "$(count_lines "$REQUESTS" "$ID")" = 1 ] || fail "a rejected alert was resent"

# A redirect to another host is not followed (localhost is not 127.0.0.1), nor retried.
sed 's/20240501T120000Z-4f3a9c/20240504T120000Z-0d0d0d/' "$FIXTURE" >"$WORK/run2.json"
ID2="$(alert_id_of "$WORK/run2.json")"
python3 - "$PORT" <<'PY'
import json, sys, urllib.request
body = json.dumps({"script": [f"redirect:http://localhost:{sys.argv[1]}/elsewhere"]}).encode()
urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/_control", data=body), timeout=60)
PY
run_notify redirected "$WORK/run2.json"
expect_rc 2 "notify redirected to another host"
grep -q "another host (http://localhost" "$WORK/redirected.err" || fail "the refused redirect is not reported"
[ "$(count_lines "$REQUESTS" "$ID2")" = 1 ] || fail "the cross-host redirect was followed or retried"

# A receiver's answer is quoted on stderr as text: its terminal escapes (a window title, a screen
# clear) are shown, never obeyed.
sed 's/20240501T120000Z-4f3a9c/20240505T120000Z-0e0e0e/' "$FIXTURE" >"$WORK/run3.json"
python3 - "$PORT" <<'PY'
import json, sys, urllib.request
body = json.dumps({"script": ["400:\u001b]0;owned\u0007\u001b[2Jcleared"]}).encode()
urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/_control", data=body), timeout=60)
PY
run_notify escapes "$WORK/run3.json"
expect_rc 2 "notify answered 400 with escapes"
! grep -q $'\e' "$WORK/escapes.err" || fail "a receiver's escape sequence reached the terminal: $(cat -v "$WORK/escapes.err")"
grep -qF 'HTTP 400: \e]0;owned\x07\e[2Jcleared' "$WORK/escapes.err" || fail "the answer is not shown as text: $(cat -v "$WORK/escapes.err")"

# Malformed URL: exit 2, redacted to scheme and host.
PERFGATE_WEBHOOK_URL="https://hooks.example.com:99999/$PATH_TOKEN?token=$QUERY_TOKEN" run_notify bad_url "$FIXTURE"
expect_rc 2 "a malformed URL"
grep -q "https://hooks.example.com" "$WORK/bad_url.err" || fail "the bad URL is not named by its host"
PERFGATE_WEBHOOK_URL="ftp://files.example.com/$PATH_TOKEN" run_notify bad_scheme "$FIXTURE"
expect_rc 2 "a non-http URL"

# Malformed secret, unreadable results file.
PERFGATE_WEBHOOK_SECRET="whsec_$PATH_TOKEN!!" run_notify bad_secret "$FIXTURE"
expect_rc 2 "a malformed secret"
run_notify missing "$WORK/no-such-results.json"
expect_rc 2 "a missing results file"
echo "not json" >"$WORK/garbage.json"
run_notify garbage "$WORK/garbage.json"
expect_rc 2 "a malformed results file"

# Dry run: the payload on stdout, nothing sent, no secret.
PERFGATE_WEBHOOK_FORMAT=slack run_notify dry --dry-run "$FIXTURE"
expect_rc 0 "dry run"
python3 -c 'import json, sys; b = json.load(open(sys.argv[1])); assert "blocks" in b and "text" in b' \
  "$WORK/dry.out" || fail "the dry run does not print the Slack payload"
[ "$(count_lines "$REQUESTS" "$ID")" = 1 ] || fail "the dry run sent something"

# No webhook configured: nothing sent, exit 0 (a CI without a webhook stays green).
env -u PERFGATE_WEBHOOK_URL "$PERFGATE" notify "$FIXTURE" >"$WORK/unconfigured.out" 2>"$WORK/unconfigured.err" \
  || fail "notify without a webhook should exit 0"
check_no_secrets
echo "ok"
