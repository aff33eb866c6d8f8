#!/usr/bin/env bash
# attention_fused with 32 query rows per subgroup (paths 41 to 49) beside the default path 22, and
# matmul_f16's C stored twice (a study patch, staged 17 and 18 as 14 and 15) beside the shipped
# paths, on a GPU machine (device tool; a study, not a test). Each point a separate process;
# every case passes its correctness check before it is timed. Results in $OUT.
#   . .device/env.sh && PERFGATE=.study/r32/perfgate bash tests/study/rows32_h100.sh
# Binary: a138995 with tests/study/attention_rows32.patch and tests/study/matmul_store_twice.patch.
set -uo pipefail
B=${PERFGATE:-build/perfgate}
out=${OUT:-/tmp}
O=(--backend vulkan --seed 1 --no-judge --color never)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader | tee "$out/gpu.txt"
for round in 1 2; do
  for s in 14 17 15 18; do
    echo "round $round staged=$s" >> "$out/matmul.txt"
    "$B" run "${O[@]}" 'matmul_f16/*' --axis m=4096 --axis n=4096 --axis k=4096 --axis tile=128 --axis wg=256 \
      --axis staged=$s 2>&1 | grep -E '^matmul_f16|rror|fail' >> "$out/matmul.txt"
  done
done
PATHS=${PATHS:-22 41 42 43 44 45 46 47 48 49 22} PERFGATE="$B" WORK=/tmp/attention \
  bash tests/study/attention_tensor_h100.sh 0 1 > "$out/attention.txt" 2>&1
cat "$out/matmul.txt" "$out/attention.txt"
