#!/usr/bin/env bash
# matmul_f16 on the H100 at m = 31, 32 and 33 tiles of 128 rows (n = k = 4096; 128 x 256 tiles,
# 256 invocations, one workgroup resident per multiprocessor): 496, 512 and 528 workgroups on
# 132 multiprocessors, 3.76, 3.88 and 4.00 waves. If the last wave's idle multiprocessors cost
# time, m=4224 takes about as long as m=4096. A study, not a test; device tool:
#   . .device/env.sh && bash tests/study/matmul_waves_h100.sh   (results in $OUT/waves.txt)
set -uo pipefail
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader > "$out/waves.txt"
for round in 1 2 3; do
  for m in 3968 4096 4224; do
    echo "round $round m=$m" >> "$out/waves.txt"
    build/perfgate run --backend vulkan --seed 1 --no-judge 'matmul_f16/*' --axis m=$m --axis n=4096 \
      --axis k=4096 --axis tile=128 --axis wg=256 --axis staged=14 --color never 2>&1 |
      grep -E '^matmul_f16|TFLOP' >> "$out/waves.txt"
  done
done
cat "$out/waves.txt"
