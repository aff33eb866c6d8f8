#!/usr/bin/env bash
# Issue 19's compute targets at one commit on a GPU machine (device tool; a study, not a test):
# the f32 matmul and the fused attention at their large shapes beside BASE (the previous commit's
# binary), alternating twice in one process tree; matmul_f16 at 4096^3 (tile 128, wg 256 and
# 512); with DIAG (a build of tests/study/ceilings_diagnostics.patch) the fused attention's time
# taken apart; then the default Vulkan suite judged against the approved baselines, and a
# candidate for the kernels whose shaders changed (matmul and every attention kernel: they share
# the matmul shader). Logs and the candidate go to WORK (default /tmp/ceilings_final), packed
# into $OUT/ceilings_final.tgz when OUT is set (the device tool returns at most 8 files).
#   . .device/env.sh && PERFGATE=.study/perfgate BASE=.study/perfgate_base DIAG=.study/perfgate_diag \
#     bash tests/study/ceilings_final_h100.sh
set -uo pipefail
B=${PERFGATE:-build/perfgate}
W=${WORK:-/tmp/ceilings_final}
mkdir -p "$W" /tmp/final_thresholds
sed 's/^\(\s*\)allocations: 4 /\1allocations: 1 /' thresholds/default.yaml >/tmp/final_thresholds/default.yaml
C=(--cache-dir "$W/cache")
O=(--backend vulkan --seed 1 "${C[@]}" --thresholds /tmp/final_thresholds --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096)
BIG=(--axis seq=4096 --axis dmodel=4096 --axis heads=32)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,uuid --format=csv,noheader
. "$(dirname "$0")/study_step.sh"
STEP_PATTERN='^(matmul|attention|  error|[0-9]+ cases)|regress|fail' STEP_WIDTH=150
step peaks 120 "$B" run "${O[@]}" 'tensor_peak/*' 'fma_peak/*'
for round in 1 2; do
  step "f32_head$round" 60 "$B" run "${O[@]}" 'matmul/*' "${S[@]}"
  [ -n "${BASE:-}" ] && step "f32_base$round" 60 "$BASE" run "${O[@]}" 'matmul/*' "${S[@]}"
  step "attn_head$round" 120 "$B" run "${O[@]}" attention_fused "${BIG[@]}" --axis causal=0,1
  [ -n "${BASE:-}" ] && step "attn_base$round" 120 "$BASE" run "${O[@]}" attention_fused "${BIG[@]}" --axis causal=0,1
done
step f16 90 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256,512
step stages 120 "$B" run "${O[@]}" attention_scores attention_weighted_sum "${BIG[@]}"
[ -n "${DIAG:-}" ] && PERFGATE_STUDY_IGNORE_CHECK=1 step attn_diag 120 "$DIAG" run "${O[@]}" attention_fused \
  "${BIG[@]}" --axis adiag=0,1,2,3
step suite 180 "$B" run --backend vulkan "${C[@]}" --json "$W/suite.json"
step propose 300 "$B" baseline propose --backend vulkan "${C[@]}" matmul 'attention_*' --out "$W/candidate.yaml"
if [ -n "${OUT:-}" ]; then tar czf "$OUT/ceilings_final.tgz" -C "$W" .; fi
