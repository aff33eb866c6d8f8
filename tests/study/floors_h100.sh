#!/usr/bin/env bash
# Floors on a dedicated GPU (a study on the device tool, not a test): proposes and approves
# baselines with perfgate's defaults, checks the default Vulkan suite again and again against
# them (A/A), and checks DRAM-sized cases with builds whose kernel does more work (slowdown).
# Each check is a separate process. Steps run in order until DEADLINE seconds have passed since
# the start (no step starts after it); everything goes to WORK, packed into $OUT/floors.tgz at
# the end, and one summary line per check goes to $OUT/summary.txt as it comes.
#
#   S=.study/floors; . .device/env.sh && DEADLINE=540 bash $S/floors_h100.sh STEP...
#   STEP: propose                 baselines of the default Vulkan suite and of LLM_CASE, approved
#                                 into WORK/baselines (or BASELINES=DIR: use those instead)
#         proposellm              only LLM_CASE's baseline, approved into WORK/baselines
#         aa:N                    N checks of the default Vulkan suite (`perfgate run`)
#         aacase:N:CASE           N checks of one case with the normal build
#         slow:N:BINARY:CASE      N checks of one case with a slowed build (tests/study/slowdown.py)
#         (CASE: a selection, words split: 'copy/vulkan/* --axis n=33554432')
#         shipped:N               N checks of the default suite against SHIPPED (another GPU's baselines)
# Environment: S (folder holding perfgate and thresholds/), WORK (default /tmp/floors),
# BASELINES, SHIPPED, DEADLINE (default 540), LLM_CASE, SUITE (default "--backend vulkan").
set -uo pipefail
S=${S:-.study/floors}
P=$S/perfgate
W=${WORK:-/tmp/floors}
OUT=${OUT:-$W/out}
DEADLINE=${DEADLINE:-540}
LLM_CASE=${LLM_CASE:-f16_matvec/vulkan/* --backend vulkan --axis m=32768 --axis k=4096}
read -ra SUITE <<<"${SUITE:---backend vulkan}"  # the selection proposed and checked by aa
B=${BASELINES:-$W/baselines}
mkdir -p "$W" "$OUT" "$B"
C=(--thresholds "$S/thresholds" --cache-dir "$W/cache")
read -ra LLM <<<"$LLM_CASE"
start=$(date +%s)
summary() { echo "$*" | tee -a "$OUT/summary.txt"; }
late() { [ $(($(date +%s) - start)) -ge "$DEADLINE" ]; }
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader | tee -a "$OUT/summary.txt"
seq_no=0
check_line() {  # name file.txt file.json rc
  local regressed
  regressed=$(python3 - "$3" <<'PY'
import json, sys
try:
    cases = json.load(open(sys.argv[1]))["cases"]
except Exception as e:
    print(f"no json ({e})"); sys.exit()
bad, first, worst = [], [], []
for c in cases:
    j = {x["metric"]: x for x in c.get("judgements", [])}
    m = j.get("relative_latency") or j.get("latency_ns")
    if c["verdict"] == "regressed": bad.append(c["id"])
    if c.get("first_verdict") == "regressed" and c["verdict"] != "regressed": first.append(c["id"])
    if m and "change_pct" in m:
        worst.append((m["change_pct"] / max(m.get("threshold_pct", 0), 1e-9), c["id"], m["change_pct"], m.get("threshold_pct", 0), m.get("threshold_source", "")))
worst.sort(reverse=True)
top = "; ".join(f"{i} {ch:+.2f}% of {t:.2f}% {s}" for _, i, ch, t, s in worst[:3])
print(f"cases {len(cases)} regressed {len(bad)} {bad} confirmed-away {first} | nearest: {top}")
PY
)
  summary "$1: exit $4, $regressed"
  last_regressed=$(sed -n 's/^cases [0-9]* regressed \([0-9]*\).*/\1/p' <<<"$regressed")
}
for step in "$@"; do
  IFS=: read -r kind n a1 a2 <<<"$step"
  if late; then summary "deadline: not started: $step"; continue; fi
  case "$kind" in
    propose)
      t0=$(date +%s)
      "$P" baseline propose "${SUITE[@]}" "${C[@]}" --baselines "$B" --out "$W/suite.yaml" >"$W/propose-suite.txt" 2>&1
      "$P" baseline propose "${LLM[@]}" "${C[@]}" --baselines "$B" --out "$W/llm.yaml" >"$W/propose-llm.txt" 2>&1
      for c in suite llm; do
        "$P" baseline approve "$W/$c.yaml" --by "floors study" --reason "fresh baselines, shipped defaults" --yes \
          --baselines "$B" >>"$W/approve.txt" 2>&1
      done
      summary "propose: $(($(date +%s) - t0)) s; $(grep -c . "$W/propose-suite.txt") lines; $(grep -h 'catches\|unstable' "$W/propose-suite.txt" | head -3 | tr '\n' ' ')"
      tar -C "$W" -czf "$OUT/baselines.tgz" baselines suite.yaml llm.yaml propose-suite.txt propose-llm.txt 2>/dev/null
      ;;
    proposellm)
      t0=$(date +%s)
      "$P" baseline propose "${LLM[@]}" "${C[@]}" --baselines "$B" --out "$W/llm.yaml" >"$W/propose-llm.txt" 2>&1
      "$P" baseline approve "$W/llm.yaml" --by "floors study" --reason "fresh baseline, shipped defaults" --yes \
        --baselines "$B" >>"$W/approve.txt" 2>&1
      summary "proposellm: $(($(date +%s) - t0)) s; $(grep -h 'catches\|unstable\|allowed' "$W/propose-llm.txt" | head -3 | tr '\n' ' ')"
      ;;
    aa | shipped)
      base=$B
      [ "$kind" = shipped ] && base=$SHIPPED
      for i in $(seq 1 "$n"); do
        late && { summary "$kind: deadline after $((i - 1))"; break; }
        seq_no=$((seq_no + 1))
        f="$W/$kind-$seq_no"
        "$P" run "${SUITE[@]}" "${C[@]}" --baselines "$base" --color never --json "$f.json" >"$f.txt" 2>&1
        rc=$?
        check_line "$kind $i" "$f.txt" "$f.json" "$rc"
        grep -h 'catches' "$f.txt" | tail -1 >>"$OUT/summary.txt"
      done
      ;;
    aacase | slow)
      bin=$P case_id=$a1
      [ "$kind" = slow ] && bin=$a1 case_id=$a2
      caught=0 done_n=0
      for i in $(seq 1 "$n"); do
        late && { summary "$kind $case_id: deadline after $((i - 1))"; break; }
        seq_no=$((seq_no + 1))
        f="$W/$kind-$seq_no"
        read -ra sel <<<"$case_id"
        "$bin" check "${sel[@]}" "${C[@]}" --baselines "$B" --color never --json "$f.json" >"$f.txt" 2>&1
        rc=$?
        done_n=$((done_n + 1))
        check_line "$kind $(basename "$bin") $case_id $i" "$f.txt" "$f.json" "$rc"
        [ "${last_regressed:-0}" -gt 0 ] && caught=$((caught + 1))
      done
      summary "TOTAL $kind $(basename "$bin") $case_id: regressed $caught of $done_n"
      ;;
    *) summary "unknown step $step" ;;
  esac
done
tar -C "$W" -czf "$OUT/floors.tgz" . 2>/dev/null
summary "done in $(($(date +%s) - start)) s"
