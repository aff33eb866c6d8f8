#!/usr/bin/env bash
# matmul_bf16 on a GPU machine (device tool; a study, not a test), docs/performance.md ("bf16
# matmul on tensor cores"): the default point checked and timed; at 4096^3 its tiles and
# workgroups, each time after matmul_f16's default point in a separate process (the two share
# their shader source: the comparison of bf16 with f16 on one GPU); the workgroup-scope tensor
# peak beside them; then a baseline candidate for matmul_bf16 (5 runs) and the default Vulkan
# suite judged against the baselines and thresholds in STUDY (default .study/bf16).
# Every case is checked against its CPU reference on random data before it is timed. Logs go to
# WORK (default /tmp/bf16), the candidate and logs to $OUT when set.
#   . .device/env.sh && PERFGATE=.study/bf16/perfgate bash tests/study/bf16_h100.sh
set -uo pipefail
B=${PERFGATE:-build/perfgate}
D=${STUDY:-.study/bf16}
W=${WORK:-/tmp/bf16}
mkdir -p "$W"
. "$(dirname "$0")/study_step.sh"
STEP_PATTERN='^(tensor|matmul)|error|skip|regress|fail|[0-9]+ cases'
T=(--cache-dir "$W/cache" --thresholds "$D/thresholds")
O=(--backend vulkan --seed 1 "${T[@]}" --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
step default 60 "$B" run "${O[@]}" matmul_bf16 matmul_f16
for i in 1 2; do
  step "f16-$i" 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
  step "bf16-$i" 60 "$B" run "${O[@]}" 'matmul_bf16/*' "${S[@]}" --axis tile=128 --axis wg=128,256
done
step bf16-tile64 40 "$B" run "${O[@]}" 'matmul_bf16/*' "${S[@]}" --axis tile=64 --axis wg=128
step peak 60 "$B" run "${O[@]}" tensor_peak_workgroup tensor_peak
step propose 120 "$B" baseline propose --backend vulkan "${T[@]}" --baselines "$D/baselines" matmul_bf16 \
  --out "$W/candidate.yaml"
step suite 300 "$B" run --backend vulkan "${T[@]}" --baselines "$D/baselines" --json "$W/suite.json"
if [ -n "${OUT:-}" ]; then cp -r "$W"/*.txt "$W"/*.yaml "$W"/*.json "$OUT"/ 2>/dev/null; fi
