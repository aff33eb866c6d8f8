#!/usr/bin/env bash
# The ceilings study on a GPU machine (device tool): the measured peaks (DRAM, last-level cache,
# FP32, f16 tensor), the f16 tensor-core matmul's tile x wg sweep at 4096^3 beside the f32 matmul,
# and the default Vulkan suite's % peak and bound. Results JSON and logs go to $OUT.
#   . .device/env.sh && bash tests/study/ceilings_h100.sh
# PERFGATE names another binary, e.g. one carried into another checkout (docs/performance.md).
set -uo pipefail
B=${PERFGATE:-build/perfgate}
OUT=${OUT:-/tmp/ceilings}
mkdir -p "$OUT"
O=(--backend vulkan --seed 1 --cache-dir "$OUT")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
step() { echo "== $*"; timeout "${T:-120}" "$@" 2>&1 | tail -"${LINES_SHOWN:-12}"; }
step $B run "${O[@]}" 'copy/*' 'cache_peak/*' 'fma_peak/*' 'tensor_peak/*' --json "$OUT/peaks_run.json"
cat "$OUT"/peaks-*.json
LINES_SHOWN=8 step $B run "${O[@]}" 'tensor_peak/*' --axis n=16384,65536 --axis iters=128,512
LINES_SHOWN=14 step $B run "${O[@]}" 'matmul_f16/*' --axis m=4096 --axis n=4096 --axis k=4096 --axis tile=64,128 \
  --axis wg=128,256 --axis staged=0,1 --json "$OUT/matmul_f16.json"
LINES_SHOWN=6 step $B run "${O[@]}" 'matmul/*' --axis m=4096 --axis n=4096 --axis k=4096
T=200 LINES_SHOWN=45 step $B run "${O[@]}" --json "$OUT/default.json"
