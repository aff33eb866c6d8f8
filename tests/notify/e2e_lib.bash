# Shared by tests/e2e/notify_*.sh: a scratch folder, a secret and URL tokens that must never
# show up in any output, the real receiver (receiver.py) and a runner that keeps every output.
# Sourced, not run: its name does not end in .sh, so CTest does not pick it up as a test.
set -euo pipefail

command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipping"; exit 77; }
: "${PERFGATE:?PERFGATE must name the perfgate binary}"
NOTIFY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RECEIVER="$NOTIFY_DIR/receiver.py"
FIXTURE="$NOTIFY_DIR/fixtures/run_mixed.json"
WORK="${PERFGATE_E2E_TMP:-$(mktemp -d)}"
rm -rf "$WORK"
mkdir -p "$WORK"

if ! "$PERFGATE" notify --help >"$WORK/help.out" 2>&1; then
  echo "this perfgate has no notify command yet:"; cat "$WORK/help.out"; exit 77
fi

# Nothing from the caller's environment may steer the tests.
unset PERFGATE_WEBHOOK_CONFIG PERFGATE_WEBHOOK_FORMAT PERFGATE_WEBHOOK_SEND PERFGATE_WEBHOOK_CA_BUNDLE \
      PERFGATE_WEBHOOK_TIMEOUT_S PERFGATE_WEBHOOK_CONNECT_TIMEOUT_S PERFGATE_WEBHOOK_ATTEMPTS \
      GITHUB_SERVER_URL GITHUB_REPOSITORY GITHUB_RUN_ID CI_JOB_URL BUILD_URL || true
SECRET_KEY="$(python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')"
SECRET="whsec_$SECRET_KEY"
PATH_TOKEN="pathtok$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
QUERY_TOKEN="querytok$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
export PERFGATE_WEBHOOK_SECRET="$SECRET"
export PERFGATE_OUTBOX="$WORK/outbox"
RECORD="$WORK/accepted.jsonl"
REQUESTS="$WORK/requests.jsonl"
PORT=""
STEP=0

fail() {
  echo "FAIL: $*" >&2
  for f in "$WORK"/*.out "$WORK"/*.err "$WORK"/receiver*.log; do
    [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }
  done
  exit 1
}

source "$NOTIFY_DIR/../loopback_server.bash"
stop_receiver() { stop_loopback_server; }
trap stop_receiver EXIT

# start_receiver [receiver args...]
start_receiver() {
  STEP=$((STEP + 1))
  start_loopback_server "$WORK/port.$STEP" "$WORK/receiver.$STEP.log" \
    python3 "$RECEIVER" --port-file "$WORK/port.$STEP" --secret "$SECRET" --record "$RECORD" --requests "$REQUESTS" "$@"
  export PERFGATE_WEBHOOK_URL="http://127.0.0.1:$PORT/hooks/$PATH_TOKEN?token=$QUERY_TOKEN"
}

# run_notify NAME [args...]: runs `perfgate notify`, keeps stdout/stderr as NAME.out/.err,
# sets RC.
run_notify() {
  local name="$1"; shift
  set +e
  "$PERFGATE" notify "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  RC=$?
  set -e
}

expect_rc() { [ "$RC" = "$1" ] || fail "$2: exit code $RC, expected $1"; }

# How many lines of a JSON lines file have this webhook id (and, optionally, this action).
count_lines() {
  python3 - "$@" <<'PY'
import json, sys
path, msg_id = sys.argv[1], sys.argv[2]
action = sys.argv[3] if len(sys.argv) > 3 else None
n = 0
try:
    for line in open(path, encoding="utf-8"):
        e = json.loads(line)
        n += e["id"] == msg_id and (action is None or e.get("action") == action)
except FileNotFoundError:
    pass
print(n)
PY
}

outbox_count() { find "$PERFGATE_OUTBOX" -maxdepth 1 -name 'msg_*.json' 2>/dev/null | wc -l | tr -d ' '; }

alert_id_of() {  # the webhook id of a results file, from the dry run
  "$PERFGATE" notify --dry-run "$1" 2>&1 >/dev/null | sed -n 's/.*alert \(msg_[0-9a-f]*\).*/\1/p'
}

# The secret and the URL's path and query never appear in any output.
check_no_secrets() {
  local f
  for f in "$WORK"/*.out "$WORK"/*.err; do
    [ -f "$f" ] || continue
    for token in "$SECRET_KEY" "$PATH_TOKEN" "$QUERY_TOKEN"; do
      if grep -qF -- "$token" "$f"; then fail "a secret token appears in $f"; fi
    done
  done
}
