#!/usr/bin/env bash
# The fused-attention study on a GPU machine (device tool): the tensor-core attention_fused checked
# on small ragged shapes (head dims 16-128, causal or not, partial row and key blocks), the default
# attention suite against the approved baselines, then seq=4096, dmodel=4096, heads=32 (head dim
# 128): attention_fused causal and not beside the scores, softmax and weighted-sum stages it
# replaces, and attention_layer's breakdown. One allocation per case at the large shape (the
# inputs alone are 2 GiB for softmax and weighted_sum). Results JSON and the log go to $OUT.
#   . .device/env.sh && bash tests/study/attention_h100.sh
# PERFGATE names the binary (e.g. one carried into another checkout, docs/performance.md);
# PERFGATE_OTHER a second one timed on attention_fused at the large shape (a variant to compare).
set -uo pipefail
B=${PERFGATE:-build/perfgate}
OUT=${OUT:-/tmp/attention}
mkdir -p "$OUT" /tmp/attention_thresholds
sed 's/^\(\s*\)allocations: 4 /\1allocations: 1 /' thresholds/default.yaml >/tmp/attention_thresholds/default.yaml
O=(--backend vulkan --seed 1 --cache-dir /tmp/attention_cache)
Q=(--thresholds /tmp/attention_thresholds --no-judge)
BIG=(--axis seq=4096 --axis dmodel=4096 --axis heads=32)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
step() { echo "== $* [$(date +%s)]"; timeout "${T:-60}" "$@" 2>&1 | tail -"${LINES_SHOWN:-30}"; }
# The first run also measures the device's peaks (copy, cache, FMA, tensor) into the cache.
T=120 step $B run "${O[@]}" "${Q[@]}" attention_fused --axis seq=16,48,272 --axis dmodel=64,256 --axis heads=2,4 \
  --axis causal=0,1
T=90 step $B run "${O[@]}" --baselines baselines --thresholds thresholds 'attention_*' --json "$OUT/default.json"
T=180 LINES_SHOWN=40 step $B run "${O[@]}" "${Q[@]}" attention_fused attention_scores attention_softmax \
  attention_weighted_sum attention_layer "${BIG[@]}" --axis causal=0,1 --json "$OUT/large.json"
if [ -n "${PERFGATE_OTHER:-}" ]; then
  LINES_SHOWN=6 step "$PERFGATE_OTHER" run "${O[@]}" "${Q[@]}" attention_fused "${BIG[@]}" --axis causal=0,1
fi
