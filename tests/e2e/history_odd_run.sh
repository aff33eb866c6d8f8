#!/usr/bin/env bash
# One bad run cannot silence a history, through the real CLI: 40 synthetic runs with 0.5% noise,
# copy 10% slower from run 30 on, and one earlier or later run of copy 1.5x, 2x or 1000x slower
# (a machine hiccup), each appended by `report --append-history`; `history --gate` still fails
# on the step at run 30 (plus or minus 1), and the odd run makes no change point of its own.
# Runs beside other tests: it judges synthetic runs, measures nothing.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

THRESHOLDS="$PERFGATE_SOURCE_DIR/thresholds"
for odd in 1.5 2 1000; do
  for at in 10 35; do
    name="x$odd-at-$at"
    python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$WORK/$name/runs" --runs 40 \
      --step copy:30:10 --odd "copy:$at:$odd"
    for i in $(seq 0 39); do
      "$PERFGATE" report "$(printf '%s/run-%03d.json' "$WORK/$name/runs" "$i")" --history "$WORK/$name/history" \
        --append-history >/dev/null 2>>"$WORK/$name.err" || fail "$name: appending run $i failed"
    done
    set +e
    "$PERFGATE" history 'copy/*' --history "$WORK/$name/history" --thresholds "$THRESHOLDS" \
      --baselines "$WORK/no-baselines" --changes --json >"$WORK/$name.out" 2>>"$WORK/$name.err"
    RC=$?
    "$PERFGATE" history --history "$WORK/$name/history" --thresholds "$THRESHOLDS" \
      --baselines "$WORK/no-baselines" --gate >"$WORK/$name.gate.out" 2>&1
    GATE=$?
    set -e
    expect_rc 0 "$name: history --changes"
    [ "$GATE" = 1 ] || fail "$name: history --gate exited $GATE, expected 1 (the step hidden)"
    python3 - "$WORK/$name.out" <<'PY' || fail "$name: the step at run 30 was not the one change point"
import json, sys
doc = json.load(open(sys.argv[1]))
(copy,) = [c for c in doc["cases"] if c["case"] == "copy/cpu/n=1048576"]
changes = copy["changes"]
assert len(changes) == 1, changes
c = changes[0]
assert abs(c["run_index"] - 30) <= 1 and c["regression"] and 8 < c["change_pct"] < 12, c
PY
  done
done
echo "PASS: one run at 1.5x, 2x or 1000x, before or after the step, never hid it"
