#!/usr/bin/env bash
# matmul_f16 at 4096^3 with the first tiles computed in halves (staged 17 to 21: 1/2, 1/4 or all
# of the multiprocessors start on a half tile, so their later tiles' stores of C and first loads
# fall half a tile apart from the others'), beside the shipped paths 14 and 15, on a GPU machine
# (device tool; a study, not a test). Each point a separate process, first checked at 1024^3 and
# 2048 x 1536 x 1024; results in $OUT/split.txt.
#   . .device/env.sh && PERFGATE=.study/split/perfgate bash tests/study/matmul_split_h100.sh
# Binary: a138995 with tests/study/matmul_split.patch.
set -uo pipefail
B=${PERFGATE:-build/perfgate}
out=${OUT:-/tmp}/split.txt
O=(--backend vulkan --seed 1 --no-judge --color never)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > "$out"
for s in ${PATHS:-14 17 18 19 20 21 15}; do
  "$B" run "${O[@]}" 'matmul_f16/*' --axis m=1024,2048 --axis n=1024,1536 --axis k=1024 --axis tile=128 \
    --axis wg=256 --axis staged=$s 2>&1 | grep -E '^matmul_f16|rror|fail|mismatch' >> "$out"
done
for round in 1 2 3; do
  for s in ${PATHS:-14 17 18 19 20 21 15}; do
    "$B" run "${O[@]}" 'matmul_f16/*' --axis m=4096 --axis n=4096 --axis k=4096 --axis tile=128 --axis wg=256 \
      --axis staged=$s 2>&1 | grep -E '^matmul_f16|rror|fail' >> "$out"
  done
done
cat "$out"
