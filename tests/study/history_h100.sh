#!/usr/bin/env bash
# The history study on the H100, in one command: 30 separate runs of 13 Vulkan cases (DRAM-sized
# and L2-resident copy, triad, reduce and fill, compute-bound fma_peak, rmsnorm, softmax), then
# 10 runs of a build whose copy moves 2% more bytes (tests/study/slowdown.py; PERFGATE_STUDY_PCT
# sets another), then `perfgate history --changes` and `--gate`. Expected: one change point in
# each copy case at run index 30, marked as a known boundary (the kernel source changed), and
# none in any other case's history.
#
#   cmake --preset ci && cmake --build --preset ci --target perfgate && tests/study/history_h100.sh
#
# Each call measures for at most PERFGATE_STUDY_BUDGET_S seconds (default 360, so a call with
# the slowed build's compile fits in 10 minutes) and exits 3 when runs remain: call it again and
# it goes on where it stopped (the runs are kept in OUTDIR, default build/history-h100). The last
# call prints the change points; with $OUT set it copies changes.txt, changes.json, gate.txt and
# the history there.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/history-h100}
status=0
PERFGATE_STUDY_BACKEND=vulkan PERFGATE_STUDY_BUDGET_S=${PERFGATE_STUDY_BUDGET_S:-360} \
  "$root/tests/study/history_study.sh" "$out" 30 "${PERFGATE_STUDY_PCT:-2}:10" \
  'copy/vulkan/*' 'triad/vulkan/*' 'reduce/vulkan/*' 'fill/vulkan/*' 'fma_peak/vulkan/*' \
  'rmsnorm/vulkan/*' 'softmax/vulkan/*' || status=$?
if [ -n "${OUT:-}" ] && [ -d "$out/history" ]; then
  mkdir -p "$OUT/history-h100"
  cp -r "$out/history" "$OUT/history-h100/"
  for f in changes.txt changes.json gate.txt; do [ -f "$out/$f" ] && cp "$out/$f" "$OUT/history-h100/"; done
  ls "$out/runs" >"$OUT/history-h100/runs.txt"
fi
exit "$status"
