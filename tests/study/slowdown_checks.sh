#!/usr/bin/env bash
# Detection study, slowdown half: check a selection N times, each a separate process, with a
# build whose kernel does more work (tests/study/slowdown.py), against the baseline of the
# unchanged kernel (made by tests/study/aa_suite.sh). Prints one line per check.
#
#   tests/study/slowdown_checks.sh SLOW_PERFGATE BASELINES OUTDIR N SECONDS CASE_GLOB...
set -euo pipefail
perfgate=$1 baselines=$2 out=$3 n=$4 budget_s=$5
shift 5
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
start=$(date +%s)
for i in $(seq 1 "$n"); do
  [ $(( $(date +%s) - start )) -lt "$budget_s" ] || { echo "stopped at the time budget after $((i - 1)) checks"; break; }
  set +e
  "$perfgate" check "$@" --thresholds "$root/thresholds" --baselines "$baselines" --cache-dir "$out/cache" \
    --json "$out/check-$i.json" --color never > "$out/check-$i.txt" 2>&1
  rc=$?
  set -e
  echo "check $i: exit $rc $(grep -o '[0-9]* cases on .*' "$out/check-$i.txt")"
done
