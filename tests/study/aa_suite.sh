#!/usr/bin/env bash
# Detection study, A/A half: propose a fresh baseline of the selection with perfgate's default
# run count, approve it into a scratch folder, then check the same selection again and again,
# each check a separate `perfgate run` process, until N checks or SECONDS have passed. Prints
# one line per check (cases, regressed, and the cases that regressed) and leaves the results.
#
#   tests/study/aa_suite.sh PERFGATE OUTDIR N SECONDS [selection options...]
#   e.g. tests/study/aa_suite.sh build/perfgate /tmp/aa 10 540 --backend vulkan
#
# The approved scratch baselines are in OUTDIR/baselines (for the slowdown half:
# tests/study/slowdown_checks.sh).
set -euo pipefail
perfgate=$1 out=$2 n=$3 budget_s=$4
shift 4
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/baselines"
common=(--thresholds "$root/thresholds" --cache-dir "$out/cache")
start=$(date +%s)
if [ ! -f "$out/candidate.yaml" ]; then
  "$perfgate" baseline propose "$@" "${common[@]}" --baselines "$out/baselines" --out "$out/candidate.yaml" \
    > "$out/propose.txt"
  "$perfgate" baseline approve "$out/candidate.yaml" --by "detection study" --reason "fresh A/A baseline" \
    --yes --baselines "$out/baselines" > /dev/null
  echo "proposed and approved in $(( $(date +%s) - start )) s"
  grep -A50 '^unstable' "$out/propose.txt" || echo "no unstable cases"
fi
for i in $(seq 1 "$n"); do
  [ $(( $(date +%s) - start )) -lt "$budget_s" ] || { echo "stopped at the time budget after $((i - 1)) checks"; break; }
  set +e
  "$perfgate" run "$@" "${common[@]}" --baselines "$out/baselines" --json "$out/aa-$i.json" --color never \
    > "$out/aa-$i.txt" 2>&1
  rc=$?
  set -e
  regressed=$(grep -c ' regressed' "$out/aa-$i.txt" || true)
  echo "check $i: exit $rc, regressed lines $regressed $(grep -o '[0-9]* cases on .*' "$out/aa-$i.txt")"
  grep ' regressed' "$out/aa-$i.txt" | cut -c1-200 || true
done
