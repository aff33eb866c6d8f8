#!/usr/bin/env bash
# Detection study of "too busy to judge" (judge/verdict.cpp): in one condition, N rounds of an
# A/A check with the normal build and a check with a slowed build (tests/study/build_slowed.sh),
# alternating so both see the same moments, each a separate `perfgate check` process, against
# a baseline proposed quietly (a CI runner judges against one proposed in a quiet moment).
#
#   tests/study/too_busy.sh PERFGATE SLOW_PERFGATE BASELINES OUTDIR N SECONDS CASE_GLOB...
#
# One line per check: its exit code and each case's verdict, change, allowance and what its
# spread called for; counts by tests/study/count_verdicts.py OUTDIR/aa OUTDIR/slow.
set -uo pipefail
perfgate=$1 slow=$2 baselines=$3 out=$4 n=$5 budget_s=$6
shift 6
root=${PERFGATE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir -p "$out/aa" "$out/slow"
start=$(date +%s)
summary() {  # summary JSON: one line per case
  python3 - "$1" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    j = next((j for j in c.get("judgements", []) if j["metric"] == "relative_latency"), None)
    if j:
        busy = "too busy" if "too busy to judge" in j["reason"] else ""
        print(f'  {c["id"]}: {c["verdict"]} {j["change_pct"]:+.1f}% allowed {j["threshold_pct"]:.1f}% {busy}')
PY
}
for i in $(seq 1 "$n"); do
  [ $(( $(date +%s) - start )) -lt "$budget_s" ] || { echo "stopped at the time budget after $((i - 1)) rounds"; break; }
  for half in aa slow; do
    bin=$perfgate
    [ "$half" = slow ] && bin=$slow
    "$bin" check "$@" --thresholds "$root/thresholds" --baselines "$baselines" --cache-dir "$out/cache" \
      --json "$out/$half/check-$i.json" --color never >"$out/$half/check-$i.txt" 2>&1
    echo "$half $i: exit $? (load $(cut -d' ' -f1 /proc/loadavg))"
    [ -s "$out/$half/check-$i.json" ] && summary "$out/$half/check-$i.json"
  done
done
