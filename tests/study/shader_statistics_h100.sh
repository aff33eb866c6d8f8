#!/usr/bin/env bash
# The driver's statistics of the tensor-core shaders (VK_KHR_pipeline_executable_properties, in
# each dispatch line of --events) beside their times, on a GPU machine (device tool; a study, not
# a test): matmul_f16 and matmul_bf16 at 4096^3, matmul_f16's split study paths, attention_fused
# at seq 4096 on its default path and the 32-rows study paths. Then the Vulkan context tests.
#   . .device/env.sh && PERFGATE=.study/stat/perfgate TESTS=.study/stat/perfgate_tests \
#     bash tests/study/shader_statistics_h100.sh
# Binary: the tree of the statistics commit with tests/study/attention_rows32.patch and
# tests/study/matmul_split.patch applied (paths 41 to 49, staged 17 to 21).
set -uo pipefail
B=${PERFGATE:-build/perfgate}
out=${OUT:-/tmp}
O=(--backend vulkan --seed 1 --no-judge --color never --thresholds thresholds --baselines baselines
   --events "$out/events.jsonl")
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader | tee "$out/gpu.txt"
for s in 14 15 16 17 19; do
  "$B" run "${O[@]}" 'matmul_f16/*' --axis m=4096 --axis n=4096 --axis k=4096 --axis tile=128 --axis wg=256 \
    --axis staged=$s 2>&1 | grep -E '^matmul_f16|rror|fail' | tee -a "$out/times.txt"
done
"$B" run "${O[@]}" 'matmul_bf16/*' --axis m=4096 --axis n=4096 --axis k=4096 2>&1 | grep -E '^matmul_bf16|rror' |
  tee -a "$out/times.txt"
for p in 22 21 23 0 31 41 43 44 47 49; do
  "$B" run "${O[@]}" 'attention_fused/*' --axis seq=4096 --axis dmodel=4096 --axis heads=32 --axis path=$p 2>&1 |
    grep -E '^attention_fused/.*s |rror|fail' | tee -a "$out/times.txt"
done
"$B" run "${O[@]}" 'tensor_peak*/*' 'matmul/*' 'copy/*' 2>&1 | grep -E '^[a-z_0-9]+/vulkan|rror' | tee -a "$out/times.txt"
if [ -n "${TESTS:-}" ]; then
  "$TESTS" --gtest_filter='VulkanContext.*' 2>&1 | tail -40 > "$out/tests.txt"
fi
grep -c '"shader_statistics"' "$out/events.jsonl"
