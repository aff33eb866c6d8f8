#!/usr/bin/env bash
# attention_fused through tensor layouts (attention_fused_tensor.comp, paths 25 to 40) beside the
# default path 22 on a GPU machine (device tool; a study, not a test). Each path in processes of
# its own: first checked against its CPU reference on random data at seq 144, 2 heads (a partial
# last block of rows and keys), causal and not, then timed at seq 4096, 32 heads, head dim 128.
# A process that crashes prints its backtrace where PRELOAD names a library that installs one.
#   . .device/env.sh && PATHS="22 25 26" bash tests/study/attention_tensor_h100.sh [CAUSAL...]
set -uo pipefail
B=${PERFGATE:-build/perfgate}
O=(--backend vulkan --seed 1 --no-judge --cache-dir "${WORK:-/tmp/attention-tensor}/cache")
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
for p in ${PATHS:-22 $(seq 25 40) 22}; do
  echo "== path $p"
  LD_PRELOAD=${PRELOAD:-} timeout 60 "$B" run "${O[@]}" 'attention_fused/*' --axis seq=144 --axis dmodel=256 \
    --axis heads=2 --axis causal=0,1 --axis "path=$p" 2>&1 | grep -E '^attention_fused/|SIGNAL|^  /|rror|fail'
  for causal in "${@:-0}"; do
    LD_PRELOAD=${PRELOAD:-} timeout 60 "$B" run "${O[@]}" 'attention_fused/*' --axis seq=4096 --axis dmodel=4096 \
      --axis heads=32 --axis causal="$causal" --axis "path=$p" 2>&1 | grep -E '^attention_fused/.*s |SIGNAL|^  /|rror|fail'
  done
done
