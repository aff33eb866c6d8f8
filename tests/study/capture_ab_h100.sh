#!/usr/bin/env bash
# The default Vulkan suite measured by a binary without the driver's statistics captured (base,
# a138995) and one with them (head), alternating, each run a separate process, on a GPU machine
# (device tool; a study, not a test): whether capturing the statistics changes what is timed.
#   . .device/env.sh && bash tests/study/capture_ab_h100.sh   (results in $OUT/{base,head}-N.json)
set -uo pipefail
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader | tee "$out/gpu.txt"
for round in 1 2; do
  for side in base head; do
    .study/ab/$side run --backend vulkan --seed 1 --no-judge --color never --thresholds thresholds \
      --baselines baselines --json "$out/$side-$round.json" > /dev/null 2>&1
    echo "$side $round rc=$?"
  done
done
