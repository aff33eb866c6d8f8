#!/usr/bin/env bash
# One alert per pipeline: `perfgate notify` over the results of three machines posts one signed
# combined alert (schema perfgate.fleet-alert.v1) to the real receiver, exactly once, with
# every machine in it; the same results again send nothing new.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/notify/e2e_lib.bash"

# Three machines' runs of one pipeline: the fixture as measured on each of them.
for machine in cpu-amd-epyc-2t llvmpipe nvidia-h100-80gb-hbm3; do
  python3 - "$FIXTURE" "$machine" "$WORK/$machine.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["fingerprint"]["machine_id"] = sys.argv[2]
run["run_id"] += "-" + sys.argv[2]
if sys.argv[2] != "nvidia-h100-80gb-hbm3":  # only one machine regresses
    for case in run["cases"]:
        case["verdict"] = "pass"
        for j in case["judgements"]:
            j["verdict"] = "pass"
json.dump(run, open(sys.argv[3], "w"))
PY
done
runs=("$WORK/cpu-amd-epyc-2t.json" "$WORK/llvmpipe.json" "$WORK/nvidia-h100-80gb-hbm3.json")

run_notify dry --dry-run "${runs[@]}"
expect_rc 0 "dry run over three machines"
ID="$(sed -n 's/.*alert \(msg_[0-9a-f]*\).*/\1/p' "$WORK/dry.err")"
[ -n "$ID" ] || fail "no alert id in the dry run"

start_receiver --script "200"
run_notify fleet "${runs[@]}"
expect_rc 0 "delivery of the combined alert"
[ "$(count_lines "$RECORD" "$ID")" = 1 ] || fail "expected exactly one delivery of $ID"
python3 - "$RECORD" "$ID" <<'PY' || fail "the delivered body is not the combined alert of three machines"
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["id"] == sys.argv[2]]
assert len(entries) == 1, len(entries)
body = json.loads(entries[0]["body"])
assert body["schema"] == "perfgate.fleet-alert.v1", body["schema"]
assert body["id"] == sys.argv[2]
assert body["status"] == "regressed", body["status"]
machines = [m["machine"]["machine_id"] for m in body["machines"]]
assert machines == ["cpu-amd-epyc-2t", "llvmpipe", "nvidia-h100-80gb-hbm3"], machines
statuses = [m["status"] for m in body["machines"]]
assert statuses[2] == "regressed" and "regressed" not in statuses[:2], statuses
assert body["summary"]["cases"] == 9 and body["summary"]["regressed"] == 1, body["summary"]
PY
# The same pipeline notifying again (a retried final job): the receiver sees the same id.
run_notify again "${runs[@]}"
expect_rc 0 "second notify"
[ "$(count_lines "$REQUESTS" "$ID")" -ge 2 ] || fail "the second notify did not resend under the same id"
check_no_secrets
echo "ok"
