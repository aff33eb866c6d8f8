#!/usr/bin/env bash
# Two results files of one machine id (two runners with one GPU model, as two jobs of a CI
# matrix give them), one regressed and one passing: `perfgate report` and `perfgate notify`
# both say regressed, in either order, with a column (an alert section) per runner. The same
# case in two files of one device is refused, naming both files, never merged by dropping one.
# (Once the later file's cases replaced the earlier's: regressed first, the report said "2 pass".)
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

# The fixture (copy regressed) as runner A measured it; runner B, the same machine id on another
# host, passing everything.
python3 - "$FIXTURE" "$WORK" <<'PY'
import json, sys
fixture, work = sys.argv[1], sys.argv[2]
for name, host, regressed in (("reg", "aaaa1111aaaa1111", True), ("pass", "bbbb2222bbbb2222", False),
                              ("pass-same-host", "aaaa1111aaaa1111", False)):
    run = json.load(open(fixture))
    run["fingerprint"]["host_id"] = host
    run["run_id"] += "-" + name
    if not regressed:
        for case in run["cases"]:
            case["verdict"] = "pass"
            for j in case["judgements"]:
                j["verdict"] = "pass"
    json.dump(run, open(f"{work}/{name}.json", "w"))
PY
machine=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fingerprint"]["machine_id"])' "$FIXTURE")
regressed_case=$(python3 -c 'import json, sys; print([c["id"] for c in json.load(open(sys.argv[1]))["cases"] if c["verdict"] == "regressed"][0])' "$FIXTURE")
[ -n "$regressed_case" ] || fail "the fixture has no regressed case"

start_receiver --script "200"
for order in "reg pass" "pass reg"; do
  read -r first second <<<"$order"
  files=("$WORK/$first.json" "$WORK/$second.json")
  tag="$first-$second"
  set +e
  "$PERFGATE" report "${files[@]}" >"$WORK/report-$tag.out" 2>"$WORK/report-$tag.err"
  rc=$?
  set -e
  [ "$rc" -eq 0 ] || fail "report $order exited $rc"
  python3 - "$WORK/report-$tag.out" "$machine" "$regressed_case" <<'PY' || fail "report $order does not say regressed for each runner"
import re, sys
md, machine, case = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
head = md.split("\n")[0]
assert re.match(r"## perfgate on 2 machines: \*\*1 regressed\*\*", head), head
grid = [l for l in md.split("\n") if l.startswith("| case |")]
assert grid == [f"| case | `{machine} (host aaaa1111)` | `{machine} (host bbbb2222)` |"], grid
row = [l for l in md.split("\n") if l.startswith(f"| `{case}` |")]
assert len(row) == 1 and "**regressed" in row[0].split("|")[2] and "pass" in row[0].split("|")[3], row
PY
  # Delivered for real: each order its own outbox, so both go out.
  export PERFGATE_OUTBOX="$WORK/outbox-$tag"
  run_notify "notify-$tag" "${files[@]}"
  expect_rc 0 "notify $order"
  export PERFGATE_WEBHOOK_FORMAT=slack
  run_notify "slack-$tag" --dry-run "${files[@]}"
  unset PERFGATE_WEBHOOK_FORMAT
  expect_rc 0 "slack dry run $order"
  grep -qF "$machine (host aaaa1111): $regressed_case" "$WORK/slack-$tag.out" ||
    fail "the Slack message of $order does not name the regressed case on runner A"
done
python3 - "$RECORD" "$machine" <<'PY' || fail "the delivered alerts are not one regressed alert over both runners, in either order"
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1])]
assert len(entries) == 2, len(entries)
bodies = [json.loads(e["body"]) for e in entries]
assert entries[0]["id"] == entries[1]["id"], "the same runs in another order are another alert"
for body in bodies:
    assert body["schema"] == "perfgate.fleet-alert.v1", body["schema"]
    assert body["status"] == "regressed", body["status"]
    assert [m["machine"]["machine_id"] for m in body["machines"]] == [sys.argv[2]] * 2
    assert sorted(m["status"] for m in body["machines"]) == ["pass", "regressed"], [m["status"] for m in body["machines"]]
PY

# One device, the same case twice: refused by both commands, naming both files.
for cmd in report notify; do
  set +e
  "$PERFGATE" $cmd "$WORK/reg.json" "$WORK/pass-same-host.json" >"$WORK/same-$cmd.out" 2>"$WORK/same-$cmd.err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$cmd of two runs of one device exited $rc, expected 2"
  grep -qF "$WORK/reg.json and $WORK/pass-same-host.json both hold case" "$WORK/same-$cmd.err" ||
    fail "$cmd's refusal does not name both files"
done
check_no_secrets
echo "ok: report and notify count both runners' files, in either order"
