#!/usr/bin/env bash
# Detection study of measured allowances on a GPU nobody studied, through the commands a first
# run prints and nothing else (no edited thresholds): the run, `baseline propose` and `baseline
# approve` as printed, then checks of copy n=2^25 by a build whose copy does 1% more work (same
# case ids, tests/study/build_slowed.sh copy/vulkan 1), whole-suite A/A runs, and a history of
# copy-only runs (normal build, then the slowed one) appended with `report --append-history`.
# Each check and run is a process of its own; results land in OUTDIR as they come.
#
#   tests/study/calibration_gpu.sh PERFGATE SLOWED OUTDIR SECONDS [STEPS]
#   STEPS: any of propose slowed aa history (default: all), in that order; a step whose
#   baselines are missing is skipped.
set -uo pipefail
perfgate=$1 slowed=$2 out=$3 budget_s=$4
steps=${5:-"propose slowed aa history"}
start=$(date +%s)
left() { echo $((budget_s - ($(date +%s) - start))); }
mkdir -p "$out"
dram='copy/vulkan/n=33554432,wg=256'
has() { [[ " $steps " == *" $1 "* ]]; }

if has propose; then
  # FIRST: the output of an earlier first run on this machine, to follow without measuring again.
  if [ -n "${FIRST:-}" ]; then cp "$FIRST" "$out/first.txt"
  else "$perfgate" run --backend vulkan --color never --json "$out/first.json" > "$out/first.txt" 2>&1; fi
  propose=$(grep -m1 'baseline propose' "$out/first.txt" | sed 's/^ *//')
  approve=$(grep -m1 'baseline approve' "$out/first.txt" | sed 's/^ *//; s/NAME/calibration-study/; s/TEXT/first-contact/')
  echo "printed: $propose" > "$out/propose.txt"
  echo "printed: $approve" >> "$out/propose.txt"
  t0=$(date +%s)
  eval "$propose" >> "$out/propose.txt" 2>&1
  rc=$?
  echo "propose: $(( $(date +%s) - t0 )) s, exit $rc" >> "$out/propose.txt"
  eval "$approve --yes" >> "$out/propose.txt" 2>&1
  "$perfgate" baseline show --backend vulkan > "$out/show.txt" 2>&1
  cp candidate-*.yaml "$out/" 2>/dev/null
fi
if has slowed; then
  for i in $(seq 1 20); do
    [ "$(left)" -gt 20 ] || break
    "$slowed" check "$dram" --json "$out/slowed-$i.json" > "$out/slowed-$i.txt" 2>&1
    echo "slowed check $i: exit $?" >> "$out/slowed.txt"
  done
fi
if has aa; then
  for i in $(seq 1 "${AA_RUNS:-10}"); do
    [ "$(left)" -gt 70 ] || break
    "$perfgate" run --backend vulkan --color never --json "$out/aa-$i.json" > "$out/aa-$i.txt" 2>&1
    echo "A/A run $i: exit $?" >> "$out/aa.txt"
  done
fi
if has history; then
  mkdir -p "$out/history"
  for i in $(seq 1 37); do
    [ "$(left)" -gt 10 ] || break
    binary=$perfgate
    [ "$i" -gt 25 ] && binary=$slowed  # +1% work from run 26 on
    "$binary" run "$dram" --color never --json "$out/history/run-$i.json" > /dev/null 2>&1
    "$perfgate" report "$out/history/run-$i.json" --history "$out/history" --append-history > /dev/null 2>&1
  done
  "$perfgate" history "$dram" --history "$out/history" --changes > "$out/history-changes.txt" 2>&1
fi
echo "done in $(( $(date +%s) - start )) s" >> "$out/steps.txt"
