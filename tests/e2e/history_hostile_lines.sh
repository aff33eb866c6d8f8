#!/usr/bin/env bash
# Hostile or wrong history lines are refused whole, naming the file and line, with nothing
# appended: medians no measurement gives (0, -5, 1e308, 1e-300; a relative time of 1e-300), a
# string median, an unknown verdict, no run_id, a started_at that is no ISO 8601 UTC time or lies in
# the future (zzz, empty, 2099, 30 February, none), a run's case given twice (re-added with other
# medians it would move or hide a step), and a 50 MB line, refused within a few seconds and
# 200 MB (parsed whole it took 30 s and 3.8 GB). Both `report --append-history` and
# `history --gate` refuse (exit 2); neither passes the gate over the bad line.
# Runs beside other tests: it judges synthetic runs, measures nothing.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
RUNS="$WORK/runs"
HISTORY="$WORK/history"
FILE="$HISTORY/cpu-test-machine-2t.jsonl"
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$RUNS" --runs 12 >/dev/null
for i in $(seq -f '%03g' 0 9); do
  "$PERFGATE" report "$RUNS/run-$i.json" --history "$HISTORY" --append-history >/dev/null 2>&1 ||
    { echo "FAIL: appending run $i"; exit 1; }
done
cp "$FILE" "$WORK/good.jsonl"
[ "$(wc -l <"$FILE")" = 30 ] || { echo "FAIL: expected 30 lines"; exit 1; }

# edit LINE PYTHON: line LINE (1-based) of a fresh copy of the good history, as JSON `e`, edited
# by PYTHON; "append" as LINE adds the edited copy of line 4 at the end.
edit() {
  python3 - "$WORK/good.jsonl" "$FILE" "$1" "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
where, code = sys.argv[3], sys.argv[4]
index = 3 if where == "append" else int(where) - 1
e = json.loads(lines[index])
exec(code)
text = e if isinstance(e, str) else json.dumps(e)
if where == "append":
    lines.append(text)
else:
    lines[index] = text
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
}

# refused NAME LINE: appending run 10 and gating both exit 2 naming the file and LINE; the
# file is byte for byte what it was.
refused() {
  local name="$1" line="$2" before out rc
  before="$(sha256sum <"$FILE")"
  out="$("$PERFGATE" report "$RUNS/run-010.json" --history "$HISTORY" --append-history 2>&1 >/dev/null)"
  rc=$?
  if [ "$rc" != 2 ] || ! grep -q "cpu-test-machine-2t.jsonl:$line:" <<<"$out"; then
    bad "$name: append exited $rc (want 2 naming line $line): $(head -c 400 <<<"$out")"
  else
    echo "ok: $name: $(head -c 200 <<<"$out")"
  fi
  [ "$(sha256sum <"$FILE")" = "$before" ] || bad "$name: the history changed (something was appended)"
  out="$("$PERFGATE" history --history "$HISTORY" --gate 2>&1 >/dev/null)"
  rc=$?
  [ "$rc" = 2 ] && grep -q "cpu-test-machine-2t.jsonl:$line:" <<<"$out" ||
    bad "$name: history --gate exited $rc (want 2 naming line $line): $(head -c 400 <<<"$out")"
}

for value in 0 -5 1e308 1e-300; do
  edit 7 "e['medians']['latency_ns'] = $value"
  refused "latency_ns median $value" 7
done
edit 8 "e['medians']['relative_latency'] = 1e-300"
refused "relative_latency median 1e-300" 8
edit 9 "e['medians']['latency_ns'] = '800000'"
refused "a string median" 9
edit 10 "e['verdict'] = 'splendid'"
refused "an unknown verdict" 10
edit 11 "del e['run_id']"
refused "no run_id" 11
edit 12 "e['medians'] = {}"
refused "no median" 12
edit 13 "e = '[1, 2, 3]'"
refused "not an object" 13
# The series is ordered by started_at: text that is no time, none, or a time in the future would
# reorder the runs (three copy lines dated zzz made a +10% history one segment, the gate passing).
for when in zzz "" 2099-01-01T00:00:00Z 2026-02-30T00:00:00Z; do
  edit 14 "e['started_at'] = '$when'"
  refused "started_at '$when'" 14
done
edit 14 "del e['started_at']"
refused "no started_at" 14
edit append "e['medians']['latency_ns'] *= 2"
refused "a run's case given twice" 31
out="$("$PERFGATE" history --history "$HISTORY" --changes 2>&1 >/dev/null)"
grep -q "already on line 4" <<<"$out" || bad "the duplicate's error does not name the first line: $out"

# Results dated zzz, empty or 2099, or of a machine id that names no file, are refused by
# `report --append-history`, naming the results file, with nothing appended.
cp "$WORK/good.jsonl" "$FILE"
for edit_results in "r['started_at'] = 'zzz'" "r['started_at'] = ''" "r['started_at'] = '2099-01-01T00:00:00Z'" \
                    "r['fingerprint']['machine_id'] = '../../x'"; do
  python3 - "$RUNS/run-010.json" "$WORK/edited.json" "$edit_results" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
  before="$(sha256sum <"$FILE")"
  out="$("$PERFGATE" report "$WORK/edited.json" --history "$HISTORY" --append-history 2>&1 >/dev/null)"
  rc=$?
  if [ "$rc" != 2 ] || ! grep -q "$WORK/edited.json: .*nothing appended" <<<"$out"; then
    bad "results edited by $edit_results: append exited $rc (want 2 naming the results file): $(head -c 300 <<<"$out")"
  else
    echo "ok: $edit_results: $(head -c 200 <<<"$out")"
  fi
  [ "$(sha256sum <"$FILE")" = "$before" ] || bad "$edit_results: the history changed"
done
[ -z "$(find "$WORK" -name '*x.jsonl')" ] || bad "a machine id of ../../x wrote $(find "$WORK" -name '*x.jsonl')"

# A 50 MB line: refused without parsing it, in bounded time and memory.
cp "$WORK/good.jsonl" "$FILE"
python3 - "$FILE" <<'PY'
import json
with open(__import__("sys").argv[1], "a") as f:
    f.write('{"run_id": "huge", "case": "copy/cpu/n=1048576", "verdict": "pass", "medians": {"latency_ns": [')
    f.write(",".join(["123456.789"] * 4_800_000))
    f.write(']}}\n')
PY
python3 - "$PERFGATE" "$RUNS/run-010.json" "$HISTORY" <<'PY' || fail=1
import resource, subprocess, sys, time
perfgate, run, history = sys.argv[1:]
start = time.monotonic()
p = subprocess.run([perfgate, "report", run, "--history", history, "--append-history"], capture_output=True, text=True)
elapsed = time.monotonic() - start
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"50 MB line: exit {p.returncode} in {elapsed:.2f} s, {rss_mb:.0f} MB: {p.stderr.strip()[:200]}")
ok = p.returncode == 2 and "cpu-test-machine-2t.jsonl:31:" in p.stderr and "longer than" in p.stderr
# 1 s on a quiet machine; the bound here leaves room for a busy one.
ok = ok and rss_mb < 200 and elapsed < 10
if not ok:
    print("FAIL: the 50 MB line was not refused at once in bounded memory")
sys.exit(0 if ok else 1)
PY
[ "$(wc -l <"$FILE")" = 31 ] || bad "a run was appended after the 50 MB line"
exit $fail
