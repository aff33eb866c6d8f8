#!/usr/bin/env bash
# The tensor-core ceilings and kernels on a GPU machine (device tool; a study, not a test), in
# the three rounds of docs/performance.md ("Tensor cores through Debian 13's shader compiler"):
#   sweep  the subgroup tensor peak (KHR or NV), a sweep of the workgroup-scope peak
#          (VK_NV_cooperative_matrix2) and of matmul_f16 at 4096^3 over its workgroup-scope paths,
#          tiles and workgroups, and a baseline candidate for tensor_peak*;
#   staged matmul_f16's workgroup-scope path with blocks staged through shared memory, the NV
#          staged shader beside it, and a candidate for tensor_peak_workgroup;
#   final  the best matmul_f16 configuration twice, then the default Vulkan suite judged against
#          the baselines and thresholds in STUDY (default .study/tensor);
#   shapes matmul_f16's workgroup-scope path with two shared buffers (staged 5, 6) and with
#          rectangular tiles (7 to 10), the single-buffered square tile (staged 3) beside them;
#   default the best two points (staged 3 on 128 invocations, staged 4 on 256) in alternating
#          processes, beside the same points of the binary at BASE when given, then a baseline
#          candidate for matmul_f16's default point;
#   judge  matmul_f16's default point judged twice against the baselines in STUDY;
#   order  matmul_f16's C tiles walked in bands of tile rows (staged 11 to 13) beside staged 3 and
#          7, in alternating processes with the binary at BASE when given (its staged 3), then
#          attention_fused at seq 4096, 32 heads, head dim 128 over its paths (0: subgroup NV
#          fragments; 1 to 6: workgroup scope), full and causal;
#   lazy   attention_fused's workgroup-scope paths with and without the lazy maxima (3 and 7 to
#          10), path 3 of the binary at BASE beside them, in alternating processes, causal too;
#          then a baseline candidate for the default point at the fastest of them (--axis path);
#   packed attention_fused's path 3 with the next block held as f16 (11; 12 at 64 keys) beside
#          path 3 of the binary at BASE, in alternating processes, then attention_fused's and
#          matmul_f16's default points judged against the baselines in STUDY;
#   buffers attention_fused's path 3 with K and V through two shared buffers (13; 14 at 64 rows on
#          128 invocations; 15 at 16 keys per block) and at 16 keys through one (16), beside path
#          3 of the binary at BASE, in alternating processes, causal too;
#   rows   attention_fused's paths 17 to 20 (16 rows per subgroup, the softmax in registers through
#          VK_NV_cooperative_matrix2's reductions) beside path 3, as in buffers;
#   f16kv  attention_fused's paths 21 to 24 (17 to 20 with K and V rounded to f16 by a pre-pass)
#          beside paths 3 and 18, and path 18 of the binary at BASE, causal too;
#   propose a baseline candidate for attention_fused's default point, copied to OUT.
# Every case is checked against its CPU reference on random data before it is timed. Logs go to
# WORK (default /tmp/tensor-ROUND), packed into $OUT/tensor-ROUND.tgz when OUT is set.
#   . .device/env.sh && PERFGATE=.study/tensor/perfgate bash .study/tensor/tensor_h100.sh sweep
set -uo pipefail
round=${1:?round: sweep, staged, final, shapes, default, judge, order, lazy, packed, buffers, rows, f16kv or propose}
B=${PERFGATE:-build/perfgate}
D=${STUDY:-.study/tensor}
W=${WORK:-/tmp/tensor-$round}
mkdir -p "$W"
. "$(dirname "$0")/study_step.sh"
STEP_PATTERN='^(tensor|matmul|attention)|error|skip|regress|fail|[0-9]+ cases'
T=(--cache-dir "$W/cache" --thresholds "$D/thresholds")
O=(--backend vulkan --seed 1 "${T[@]}" --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
# The attention rounds' shape (seq 4096, 32 heads, head dim 128), and their comparison:
# attention_rounds BASE_PATH PATHS LIMIT measures PATHS twice, each time after BASE's BASE_PATH
# when BASE is set (alternating processes: the driver's code generation moves with the source).
A=(--axis seq=4096 --axis dmodel=4096 --axis heads=32)
attention_rounds() {
  local i
  for i in 1 2; do
    [ -n "${BASE:-}" ] && step "base-$i" 60 "$BASE" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis "path=$1"
    step "paths-$i" "$3" "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis "path=$2"
  done
}
case $round in
  sweep)
    step list 30 "$B" list --backend vulkan 'tensor_peak*' 'matmul_f16'
    step peak 120 "$B" run "${O[@]}" 'tensor_peak/*' --axis n=65536 --axis iters=512
    step peak_wg 150 "$B" run "${O[@]}" 'tensor_peak_workgroup/*' --axis tm=64,128 --axis tn=64,128 --axis chains=2,4
    step f16_nv 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
    step f16_wg 200 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3,4 --axis tile=64,128,256 --axis wg=128,256
    step propose 200 "$B" baseline propose --backend vulkan "${T[@]}" 'tensor_peak*' --out "$W/candidate.yaml" ;;
  staged)
    step f16_wg 150 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3,4 --axis tile=64,128 --axis wg=128,256
    step f16_nv 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
    step propose 150 "$B" baseline propose --backend vulkan "${T[@]}" 'tensor_peak_workgroup' --out "$W/candidate.yaml" ;;
  final)
    step best1 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3 --axis wg=128 --axis tile=128
    step best2 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3 --axis wg=128 --axis tile=128
    step suite 260 "$B" run --backend vulkan "${T[@]}" --baselines "$D/baselines" --json "$W/suite.json"
    tail -5 "$W/suite.txt" ;;
  shapes)
    step double 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis tile=128 --axis wg=128,256 --axis staged=3,5,6
    step rect 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis tile=128 --axis wg=128,256 --axis staged=7,8,9,10
    step small 45 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis tile=64 --axis wg=128 --axis staged=5,6,7,8,9,10 ;;
  default)
    for i in 1 2; do
      for bin in "$B" ${BASE:-}; do
        tag=$(basename "$bin")
        step "w128-$tag-$i" 40 "$bin" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3 --axis wg=128
        step "w256-$tag-$i" 40 "$bin" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=4 --axis wg=256
      done
    done
    step propose 60 "$B" baseline propose --backend vulkan "${T[@]}" 'matmul_f16' --out "$W/candidate.yaml" ;;
  judge)
    step judge1 40 "$B" run --backend vulkan "${T[@]}" --baselines "$D/baselines" 'matmul_f16'
    step judge2 40 "$B" run --backend vulkan "${T[@]}" --baselines "$D/baselines" 'matmul_f16' ;;
  order)
    for i in 1 2; do
      [ -n "${BASE:-}" ] && step "base-$i" 40 "$BASE" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3 --axis wg=128
      step "w128-$i" 80 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3,11,12 --axis wg=128
      step "w256-$i" 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=7,13 --axis wg=256
    done
    step fused 150 "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis causal=0 --axis path=0,1,2,3,4,5,6
    step causal 100 "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis causal=1 --axis path=0,1,3,4 ;;
  lazy)
    attention_rounds 3 3,7,8,9,10 120
    step causal 90 "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis causal=1 --axis path=3,7,8
    # The fastest path of the second pass (latency in µs from its "N ms" or "N µs" column).
    best=$(awk '/^attention_fused/ { t = $2 * ($3 == "ms" ? 1000 : 1); split($1, a, "path=");
                if (best == "" || t < bt) { best = a[2]; bt = t } } END { print best }' "$W/paths-2.txt")
    echo "fastest path: $best"
    step propose 150 "$B" baseline propose --backend vulkan "${T[@]}" 'attention_fused' --axis "path=$best" \
      --out "$W/candidate.yaml" ;;
  packed)
    attention_rounds 3 3,11,12 90
    step judge1 60 "$B" run --backend vulkan "${T[@]}" --baselines "$D/baselines" 'attention_fused' 'matmul_f16'
    step judge2 60 "$B" run --backend vulkan "${T[@]}" --baselines "$D/baselines" 'attention_fused' 'matmul_f16' ;;
  buffers)
    attention_rounds 3 3,13,14,15,16 120
    step causal 90 "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis causal=1 --axis path=3,13 ;;
  rows)
    attention_rounds 3 3,17,18,19,20 120
    step causal 90 "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis causal=1 --axis path=3,17,18,19,20 ;;
  f16kv)
    attention_rounds 18 3,18,21,22,23,24 120
    step causal 90 "$B" run "${O[@]}" 'attention_fused/*' "${A[@]}" --axis causal=1 --axis path=18,21,22,23,24 ;;
  propose)
    step propose 150 "$B" baseline propose --backend vulkan "${T[@]}" 'attention_fused' --out "$W/candidate.yaml"
    cp "$W/candidate.yaml" "${OUT:-$W}/" ;;
  *) echo "unknown round $round (sweep, staged, final, shapes, default, judge, order, lazy, packed, buffers, rows, f16kv or propose)" >&2; exit 2 ;;
esac
if [ -n "${OUT:-}" ]; then tar czf "$OUT/tensor-$round.tgz" -C "$W" --exclude cache .; fi
