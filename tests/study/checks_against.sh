#!/usr/bin/env bash
# N checks of CASES by each named build against one approved baselines folder (one proposal's,
# say, made by tests/study/history_source.sh with RUNS 0), each check a process of its own, no
# history: what a change to the judge, or a slowed build, gives against a baseline of one period.
# Results in OUTDIR/NAME-i.json; OUTDIR/steps.txt counts each build's verdicts with the range of
# the judged time's change (relative_latency where calibrated, else latency_ns) and its allowance.
#
#   tests/study/checks_against.sh OUTDIR BASELINES BACKEND CASES N NAME=BINARY...
#   e.g. tests/study/checks_against.sh /tmp/q /tmp/hsv/baselines vulkan 'copy/vulkan/*' 20 \
#          w150=/tmp/slowv150/src/build/perfgate aa=build/perfgate
set -uo pipefail
if [ $# -lt 6 ]; then
  echo "usage: $0 OUTDIR BASELINES BACKEND CASES N NAME=BINARY..." >&2
  exit 2
fi
out=$1 baselines=$2 backend=$3 cases=$4 n=$5
shift 5
mkdir -p "$out"
th="$PWD/thresholds"
here=$(cd "$(dirname "$0")" && pwd)
for build in "$@"; do
  name=${build%%=*} binary=${build#*=}
  for i in $(seq 1 "$n"); do
    "$binary" check "$cases" --backend "$backend" --baselines "$baselines" --thresholds "$th" \
      --json "$out/$name-$i.json" > "$out/$name-$i.txt" 2>&1
  done
  echo "$(date +%T) $name ($binary): $(python3 "$here/level_counts.py" --per-case "$out/$name"-*.json)" | tee -a "$out/steps.txt"
done
