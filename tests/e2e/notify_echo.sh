#!/usr/bin/env bash
# A receiver that echoes the URL back in its error (decoded, re-encoded, lowercased, escaped as
# JSON or HTML, a token of one character): perfgate prints the error, never a piece of the
# URL's path or query. Also: an http:// URL carrying a token is warned about, once.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

variants=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import receiver; print(len(receiver.ECHOES))' \
  "$PERFGATE_SOURCE_DIR/tests/notify")
[ "$variants" -ge 18 ] || fail "the receiver has $variants echo variants"
# One answer per request, in order: each notify sends one alert (a rejected one is set aside,
# not sent again), so run i meets variant i; the receiver's log of requests below proves it.
start_receiver --script "$(seq -s, -f 'echo:%g' 0 $((variants - 1)))"
# Short tokens, percent-encodings in both cases, an encoded slash inside a query value.
export PERFGATE_WEBHOOK_URL="http://127.0.0.1:$PORT/hooks/T%30KEN/x7?sig=ABCD%2FEFGH1234&k=Z"
for ((i = 0; i < variants; i++)); do
  sed "s/20240501T120000Z-4f3a9c/20240501T120000Z-echo$(printf %02d "$i")/" "$FIXTURE" >"$WORK/run$i.json"
  run_notify "echo$i" "$WORK/run$i.json"
  expect_rc 2 "echo variant $i"
  grep -q "HTTP 400" "$WORK/echo$i.err" || fail "echo variant $i: the receiver's answer is not reported"
  echo "variant $i: $(grep "HTTP 400" "$WORK/echo$i.err" | head -1)"
done
python3 - "$REQUESTS" "$variants" <<'PY' || fail "the runs did not meet the echo variants one to one"
import json, sys
actions = [json.loads(line)["action"] for line in open(sys.argv[1])]
assert actions == [f"echo:{i}" for i in range(int(sys.argv[2]))], actions
PY

# No piece of the path or query, in any case, anywhere (a short piece as a word of its own).
python3 - "$WORK" <<'PY' || fail "a piece of the webhook URL reached the output"
import glob, re, sys
pieces = ["T0KEN", "T%30KEN", "%54%30%4b%45%4e", "x7", "ABCD", "EFGH1234", "Z", "ABCD%2FEFGH1234"]
bad = 0
for name in sorted(glob.glob(sys.argv[1] + "/echo*.out") + glob.glob(sys.argv[1] + "/echo*.err")):
    text = open(name, encoding="utf-8", errors="replace").read()
    for piece in pieces:
        pattern = re.escape(piece) if len(piece) >= 6 else r"(?<![A-Za-z0-9])" + re.escape(piece) + r"(?![A-Za-z0-9])"
        if re.search(pattern, text, re.IGNORECASE):
            print(f"{name}: shows {piece!r}: {text.strip()}")
            bad += 1
sys.exit(1 if bad else 0)
PY

# The http:// URL carries a token in clear text: said once per call, the URL redacted.
[ "$(grep -c "http://127.0.0.1:$PORT .*not encrypted" "$WORK/echo0.err")" = 1 ] ||
  fail "no single warning that the token travels unencrypted"
check_no_secrets
echo "ok"
