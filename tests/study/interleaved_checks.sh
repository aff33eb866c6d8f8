#!/usr/bin/env bash
# Detection study of a change to how a check samples: several variants of `perfgate check` (a
# build, its thresholds folder) checking one case against the same baselines, N rounds, each
# check a separate process; within a round the variants take turns, so all of them see the same
# load. Per variant it leaves OUTDIR/LABEL/check-I.json (for tests/study/count_verdicts.py) and
# appends "LABEL I exit seconds" to OUTDIR/times.txt; at the end it prints each variant's checks,
# exits and mean and median seconds per check.
#
#   tests/study/interleaved_checks.sh OUTDIR N BASELINES CASE LABEL=PERFGATE:THRESHOLDS...
#   e.g. ... /tmp/s 10 /tmp/s/baselines 'copy/vulkan/n=1048576,wg=256' \
#          aa-before=/work/main/build/perfgate:/work/main/thresholds \
#          slow-before=/tmp/slow-main/src/build/perfgate:/work/main/thresholds ...
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 OUTDIR N BASELINES CASE LABEL=PERFGATE:THRESHOLDS..." >&2
  exit 2
fi
out=$1 n=$2 baselines=$3 case_id=$4
shift 4
mkdir -p "$out"
for round in $(seq 1 "$n"); do
  for variant in "$@"; do
    label=${variant%%=*} rest=${variant#*=}
    perfgate=${rest%%:*} thresholds=${rest#*:}
    mkdir -p "$out/$label"
    start=$EPOCHREALTIME
    set +e
    "$perfgate" check "$case_id" --baselines "$baselines" --thresholds "$thresholds" --cache-dir "$out/cache" \
      --json "$out/$label/check-$round.json" --color never >"$out/$label/check-$round.txt" 2>&1
    rc=$?
    set -e
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    echo "$label $round $rc $seconds" | tee -a "$out/times.txt"
  done
done
python3 - "$out/times.txt" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    label, _, rc, seconds = line.split()
    rows[label].append((int(rc), float(seconds)))
for label, checks in rows.items():
    exits = collections.Counter(rc for rc, _ in checks)
    times = [s for _, s in checks]
    print(f"{label:16s} {len(checks):3d} checks, exits {dict(sorted(exits.items()))}, "
          f"{statistics.mean(times):6.1f} s mean, {statistics.median(times):6.1f} s median per check")
PY
