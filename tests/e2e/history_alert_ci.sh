#!/usr/bin/env bash
# A change-point alert queued while the receiver is down survives the CI flow: `ci/history.sh`
# on a scratch repository, each run a fresh clone with a fresh outbox (a CI job's container).
# Run 1, receiver down: the gate fails, the alert is only queued, ALERTED.log is not written or
# pushed. Run 2, receiver up: the alert is delivered, once, and ALERTED.log is pushed. Run 3:
# nothing is sent again. `history --notify` alone exits 3 while the alert is only queued, 2 when
# the receiver refuses it (HTTP 400), 0 once delivered, as `perfgate notify` does.
# Runs beside other tests: it judges synthetic runs through a loopback receiver, measures nothing.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"
command -v git >/dev/null 2>&1 || { echo "git not found: skipping"; exit 77; }

# git's global config (ci/history.sh adds a safe.directory) stays in the scratch folder.
export HOME="$WORK/home" GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
export PERFGATE_WEBHOOK_ATTEMPTS=1
RUNS="$WORK/runs"
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$RUNS" --runs 44 --step copy:30:10

git init --quiet --bare "$WORK/origin.git"
git clone --quiet "$WORK/origin.git" "$WORK/seed" 2>/dev/null
echo "a project" >"$WORK/seed/README"
git -C "$WORK/seed" add README
git -C "$WORK/seed" -c user.name=t -c user.email=t@t commit --quiet -m "project"
git -C "$WORK/seed" push --quiet origin HEAD:refs/heads/main

# ci_run N RESULTS...: a fresh clone and outbox, then ci/history.sh as CI runs it; sets RC.
ci_run() {
  local n="$1"; shift
  rm -rf "$WORK/job$n"
  git clone --quiet --branch main "$WORK/origin.git" "$WORK/job$n" 2>/dev/null
  set +e
  (cd "$WORK/job$n" && PERFGATE_OUTBOX="$WORK/job$n-outbox" \
    bash "$PERFGATE_SOURCE_DIR/ci/history.sh" "$PERFGATE" "$@") >"$WORK/ci$n.out" 2>"$WORK/ci$n.err"
  RC=$?
  set -e
}
branch_file() { git -C "$WORK/origin.git" show "perfgate-history:$1" 2>/dev/null || true; }
delivered() {  # how many accepted deliveries carry a change-point alert
  python3 - "$RECORD" <<'PY'
import json, sys
try:
    print(sum("change_id" in json.loads(json.loads(l)["body"]) for l in open(sys.argv[1])))
except FileNotFoundError:
    print(0)
PY
}

start_receiver
stop_receiver  # the port is known and nothing listens on it now
ci_run 1 "$RUNS"/run-0[0-3]?.json
[ "$RC" = 1 ] || fail "run 1: ci/history.sh exited $RC, expected 1 (the gate fails on the step)"
grep -q "not delivered" "$WORK/ci1.err" || fail "run 1 does not say the alert was not delivered"
[ -n "$(branch_file cpu-test-machine-2t.jsonl)" ] || fail "run 1 did not push the history"
[ -z "$(branch_file ALERTED.log)" ] || fail "run 1 pushed ALERTED.log for an alert that was only queued"

start_receiver --port "$PORT"
ci_run 2 "$RUNS/run-040.json"
[ "$RC" = 1 ] || fail "run 2: ci/history.sh exited $RC, expected 1 (the step is still open)"
[ "$(delivered)" = 1 ] || fail "run 2 delivered $(delivered) change-point alerts, expected 1"
CP="$(branch_file ALERTED.log | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["id"])')" ||
  fail "run 2 did not push ALERTED.log"
python3 - "$RECORD" "$CP" <<'PY' || fail "the delivered alert is not the change point's"
import json, sys
(body,) = [json.loads(json.loads(l)["body"]) for l in open(sys.argv[1])]
assert body["change_id"] == sys.argv[2] and body["case"] == "copy/cpu/n=1048576", body
PY

ci_run 3 "$RUNS/run-041.json"
[ "$RC" = 1 ] || fail "run 3: ci/history.sh exited $RC, expected 1"
[ "$(delivered)" = 1 ] || fail "run 3 sent the alert again: $(delivered) deliveries"
grep -q "no new regression change point" "$WORK/ci3.err" || fail "run 3 does not say there is nothing new"

# `history --notify` alone: its exit code says whether the alert went out.
HISTORY="$WORK/job3/perfgate-history"
rm -f "$HISTORY/ALERTED.log"
notify_history() {  # notify_history NAME: sets RC
  set +e
  "$PERFGATE" history --history "$HISTORY" --notify >"$WORK/$1.out" 2>"$WORK/$1.err"
  RC=$?
  set -e
}
stop_receiver
export PERFGATE_OUTBOX="$WORK/outbox-alone"
notify_history alone_down
expect_rc 3 "history --notify with the receiver down (the alert only queued)"
[ ! -s "$HISTORY/ALERTED.log" ] || fail "ALERTED.log written for an alert that was only queued"
start_receiver --port "$PORT" --script 400
notify_history alone_rejected
expect_rc 2 "history --notify when the receiver refuses the alert (HTTP 400)"
[ ! -s "$HISTORY/ALERTED.log" ] || fail "ALERTED.log written for a rejected alert"
stop_receiver
start_receiver --port "$PORT"
notify_history alone_up
expect_rc 0 "history --notify once the receiver is up"
grep -q "$CP" "$HISTORY/ALERTED.log" || fail "ALERTED.log does not record the delivered alert"
notify_history alone_again
expect_rc 0 "history --notify with nothing new"
[ "$(delivered)" = 2 ] || fail "expected 2 deliveries in all (CI run 2, then the alert sent alone), got $(delivered)"
check_no_secrets
echo "ok"
