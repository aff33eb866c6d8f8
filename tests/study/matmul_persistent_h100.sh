#!/usr/bin/env bash
# matmul_f16 on the H100 at 4096^3 (and m=4224, four full waves), one workgroup per tile
# (staged 14 and 15) against one workgroup per multiprocessor walking the tiles in turn (17 and
# 18: the same tile order), each a separate process, alternating, three rounds. A study, not a
# test; device tool:
#   . .device/env.sh && PERFGATE=.study/p30/perfgate bash tests/study/matmul_persistent_h100.sh
# (results in $OUT/persistent.txt)
set -uo pipefail
out=${OUT:-/tmp}
perfgate=${PERFGATE:-build/perfgate}
log="$out/persistent.txt"
nvidia-smi --query-gpu=name,driver_version,uuid,clocks.sm,clocks.max.sm --format=csv,noheader > "$log"
for round in 1 2 3; do
  for m in 4096 4224; do
    for staged in 14 17 15 18; do
      echo "round $round m=$m staged=$staged" >> "$log"
      "$perfgate" run --backend vulkan --seed 1 --no-judge 'matmul_f16/*' --axis m=$m --axis n=4096 \
        --axis k=4096 --axis tile=128 --axis wg=256 --axis staged=$staged --color never 2>&1 |
        grep -E '^matmul_f16|TFLOP|rror|skip' >> "$log"
    done
  done
done
cat "$log"
