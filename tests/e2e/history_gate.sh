#!/usr/bin/env bash
# A gate with a memory, through the real CLI: 40 synthetic runs (copy 10% slower from run 30 on)
# appended by two processes at once; `history --changes` finds the step in copy at run 30 and
# nothing elsewhere; `history --gate` fails on it; `history --notify` delivers its alert to the
# real receiver exactly once over two calls; an acknowledgement is logged and the gate passes.
# Runs beside other tests: it judges synthetic runs, measures nothing.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

HISTORY="$WORK/history"
RUNS="$WORK/runs"
THRESHOLDS="$PERFGATE_SOURCE_DIR/thresholds"
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$RUNS" --runs 40 --step copy:30:10

# Two processes append at once, one the even runs, the other the odd ones.
append_every_other() {
  local parity="$1" i
  for i in $(seq "$parity" 2 39); do
    "$PERFGATE" report "$(printf '%s/run-%03d.json' "$RUNS" "$i")" --history "$HISTORY" --append-history \
      >/dev/null 2>>"$WORK/append.$parity.err" || return 1
  done
}
append_every_other 0 & A=$!
append_every_other 1 & B=$!
wait "$A" || fail "the even appender failed"
wait "$B" || fail "the odd appender failed"
FILE="$HISTORY/cpu-test-machine-2t.jsonl"
[ "$(wc -l <"$FILE")" = 120 ] || fail "expected 120 history lines (40 runs x 3 cases), got $(wc -l <"$FILE")"
python3 - "$FILE" <<'PY' || fail "a history line is broken or a run is missing"
import json, sys
runs = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    runs.setdefault(e["run_id"], 0)
    runs[e["run_id"]] += 1
    assert e["source_hash"].startswith("sha256:") and e["perfgate_version"] == "0.0.0-test", e
    assert "latency_ns" in e["spreads"], e
assert len(runs) == 40 and set(runs.values()) == {3}, runs
PY
# Appending a run again keeps one copy.
"$PERFGATE" report "$RUNS/run-007.json" --history "$HISTORY" --append-history >/dev/null 2>&1
[ "$(wc -l <"$FILE")" = 120 ] || fail "a run appended twice was kept twice"

run_history() {  # run_history NAME args...: keeps NAME.out/.err, sets RC
  local name="$1"; shift
  set +e
  "$PERFGATE" history "$@" --history "$HISTORY" --thresholds "$THRESHOLDS" --baselines "$WORK/no-baselines" \
    >"$WORK/$name.out" 2>"$WORK/$name.err"
  RC=$?
  set -e
}

run_history changes --changes --json
expect_rc 0 "history --changes --json"
CP="$(python3 - "$WORK/changes.out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
by_case = {c["case"]: c for c in doc["cases"]}
assert len(by_case) == 3, list(by_case)
copy = by_case["copy/cpu/n=1048576"]
assert len(copy["changes"]) == 1, copy["changes"]
c = copy["changes"][0]
assert c["run_index"] == 30, c
assert c["commit_before"].startswith("0029") and c["commit_after"].startswith("0030"), c
assert 8 < c["change_pct"] < 12 and c["regression"] and not c["acknowledged"], c
assert c["interval_pct"][0] < c["change_pct"] < c["interval_pct"][1], c
for other in ("triad/cpu/n=1048576", "rmsnorm/cpu/n=4096,rows=64"):
    assert by_case[other]["changes"] == [], by_case[other]
print(c["id"])
PY
)" || fail "history --changes did not find the one step in copy at run 30"

run_history table 'copy/*' --changes
expect_rc 0 "history --changes"
grep -q "$CP" "$WORK/table.out" || fail "the table does not show $CP"
grep -q "OPEN" "$WORK/table.out" || fail "the table does not show the change point as open"

run_history gate --gate
expect_rc 1 "history --gate with an open regression change point"
grep -q "$CP" "$WORK/gate.err" || fail "the gate does not name $CP"

# A bad history line is an error naming the file and line (exit 2), and the gate does not pass.
cp "$FILE" "$WORK/history.bak"
echo '{"run_id": "cut' >>"$FILE"
run_history broken --gate
expect_rc 2 "history --gate on a broken line"
grep -q "cpu-test-machine-2t.jsonl:121" "$WORK/broken.err" || fail "the error does not name the file and line"
cp "$WORK/history.bak" "$FILE"

# The alert: sent once over two calls, signed, with the change point's id and commit range.
start_receiver
run_history notify1 --notify
expect_rc 0 "history --notify"
run_history notify2 --notify
expect_rc 0 "history --notify again"
python3 - "$RECORD" "$CP" <<'PY' || fail "the change point alert was not delivered exactly once"
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1])]
bodies = [json.loads(e["body"]) for e in entries]
mine = [b for b in bodies if b.get("change_id") == sys.argv[2]]
assert len(entries) == 1 and len(mine) == 1, (len(entries), len(mine))
b = mine[0]
assert b["schema"] == "perfgate.change-point.v1" and b["case"] == "copy/cpu/n=1048576", b
assert b["commit_before"].startswith("0029") and b["commit_after"].startswith("0030"), b
assert entries[0]["id"] == b["id"]
PY
grep -q "$CP" "$HISTORY/ALERTED.log" || fail "ALERTED.log does not record $CP"

# Acknowledged: logged with who and why; the gate passes; no alert again.
set +e
"$PERFGATE" history ack "$CP" --history "$HISTORY" --by alice >"$WORK/ack_no_reason.out" 2>&1
RC=$?
set -e
[ "$RC" != 0 ] || fail "an acknowledgement without a reason was accepted"
"$PERFGATE" history ack "$CP" --by alice --reason "copy now checks its output: wanted" --history "$HISTORY" \
  >"$WORK/ack.out" 2>"$WORK/ack.err" || fail "history ack failed"
python3 - "$HISTORY/ACKNOWLEDGED.log" "$CP" <<'PY' || fail "the acknowledgement is not logged"
import json, sys
(e,) = [json.loads(l) for l in open(sys.argv[1])]
assert e["id"] == sys.argv[2] and e["by"] == "alice" and e["reason"].startswith("copy now") and e["at"], e
PY
run_history gate2 --gate
expect_rc 0 "history --gate after the acknowledgement"
run_history notify3 --notify
[ "$(wc -l <"$RECORD")" = 1 ] || fail "an acknowledged change point was alerted again"
run_history table2 --changes
grep -q "acknowledged by alice" "$WORK/table2.out" || fail "the table does not show the acknowledgement"
check_no_secrets
echo "ok"
