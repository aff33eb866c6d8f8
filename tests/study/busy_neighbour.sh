#!/usr/bin/env bash
# A/A under a busy neighbour (a study, not a test): checks a selection N times against an
# approved baseline, each check a separate `perfgate check` process, while a busy loop pinned
# to one core (the last one) starts DELAY_S seconds into the check and runs until it ends, as
# another job landing on a shared runner part-way through would. Prints one line per check.
#
#   tests/study/busy_neighbour.sh PERFGATE BASELINES OUTDIR N DELAY_S SELECTION...
#   e.g. tests/study/busy_neighbour.sh build/perfgate /tmp/aa/baselines /tmp/busy 20 1 'copy/cpu/*' --backend cpu
set -euo pipefail
if [ $# -lt 6 ]; then
  echo "usage: $0 PERFGATE BASELINES OUTDIR N DELAY_S SELECTION..." >&2
  exit 2
fi
perfgate=$1 baselines=$2 out=$3 n=$4 delay_s=$5
shift 5
root=$(cd "$(dirname "$0")/../.." && pwd)
core=$(( $(nproc) - 1 ))
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  ( sleep "$delay_s"; exec taskset -c "$core" sh -c 'while :; do :; done' ) &
  busy=$!
  set +e
  "$perfgate" check "$@" --thresholds "$root/thresholds" --baselines "$baselines" --cache-dir "$out/cache" \
    --json "$out/check-$i.json" --color never > "$out/check-$i.txt" 2>&1
  rc=$?
  set -e
  pkill -P "$busy" 2>/dev/null || true
  kill "$busy" 2>/dev/null || true
  wait "$busy" 2>/dev/null || true
  echo "check $i: exit $rc $(grep -o '[0-9]* cases on .*' "$out/check-$i.txt")"
done
