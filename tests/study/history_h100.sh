#!/usr/bin/env bash
# The history study on the H100, in one command: 30 separate runs of 13 Vulkan cases (DRAM-sized
# and L2-resident copy, triad, reduce and fill, compute-bound fma_peak, rmsnorm, softmax), then
# 10 runs of a build whose copy moves 2% more bytes (tests/study/slowdown.py: the DRAM point
# ~+2% time, the in-L2 point more where the extra bytes leave L2), then `perfgate history
# --changes`. Expected: one change point in each copy case at run 31 (index 30, a known
# boundary: the kernel source changed), none in any other case. Results in OUTDIR
# (default .study/history-h100): changes.txt, changes.json, gate.txt, the history and the runs.
#
#   cmake --preset ci && cmake --build --preset ci --target perfgate && tests/study/history_h100.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/.study/history-h100}
PERFGATE_STUDY_BACKEND=vulkan "$root/tests/study/history_study.sh" "$out" 30 "${PERFGATE_STUDY_PCT:-2}:10" \
  'copy/vulkan/*' 'triad/vulkan/*' 'reduce/vulkan/*' 'fill/vulkan/*' 'fma_peak/vulkan/*' \
  'rmsnorm/vulkan/*' 'softmax/vulkan/*'
