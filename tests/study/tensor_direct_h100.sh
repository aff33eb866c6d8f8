#!/usr/bin/env bash
# matmul_f16 at workgroup scope with A and B loaded straight from global memory through tensor
# layouts, K and N specialization constants, the k loop unrolled, against the staged=3 path, at
# 4096^3 on a GPU machine (device tool; a study, not a test). Each run a separate process; every
# case checked against its CPU reference on random data before timing.
#   . .device/env.sh && PERFGATE=.study/t30/perfgate bash tests/study/tensor_direct_h100.sh [ROUND]
# Rounds first to fourth ran a study build whose `staged` values 14 to 47 were (bk, tile shape,
# unroll, bands) points of the sweep (docs/performance.md lists each); `final` runs the shipped
# paths 14 to 16, proposes matmul_f16 and matmul_bf16, approves them into a scratch copy of
# STUDY's baselines and judges the default Vulkan suite against it.
set -uo pipefail
B=${PERFGATE:-build/perfgate}
D=${STUDY:-.study/t30}
W=${WORK:-/tmp/t30}
mkdir -p "$W"
. "$(dirname "$0")/study_step.sh"
STEP_PATTERN='^(tensor|matmul)|error|skip|fail|regress|[0-9]+ cases'
O=(--backend vulkan --seed 1 --cache-dir "$W/cache" --thresholds "$D/thresholds" --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096 --axis tile=128)
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
case "${1:-first}" in
  first)
    step control 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=3
    step direct128 120 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=14,15,17,20
    step direct256 150 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=14,15,16,17,18,19,20,21
    step control2 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=3
    ;;
  second)  # unroll depth and tile order on the two best shapes
    step control 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=3,14
    step wg128 120 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=24,25,27
    step wg256 150 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=18,22,23,26,28,29,30
    step again 90 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=18,26
    ;;
  third)  # deeper unrolling, 64 deep steps, tile order, 256 x 128
    step control 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=23
    step wg256 240 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=31,32,33,34,35,38,39,40
    step wg128 120 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=25,36,37
    step again 90 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=23
    ;;
  final)
    for i in 1 2; do
      step "f16-$i" 90 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=14,15
      step "f16-square-$i" 90 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=16,3
      step "bf16-$i" 60 "$B" run "${O[@]}" 'matmul_bf16/*' "${S[@]}"
    done
    T=(--cache-dir "$W/cache" --thresholds "$D/thresholds")
    rm -rf "$W/baselines" && cp -r "$D/baselines" "$W/baselines"
    step propose 240 "$B" baseline propose --backend vulkan "${T[@]}" --baselines "$W/baselines" matmul_f16 matmul_bf16 \
      --out "$W/candidate.yaml"
    step approve 30 "$B" baseline approve "$W/candidate.yaml" --by "tensor study" --reason "study" --yes \
      --baselines "$W/baselines"
    step suite 300 "$B" run --backend vulkan "${T[@]}" --baselines "$W/baselines" --json "$W/suite.json"
    [ -z "${OUT:-}" ] || cp "$W/candidate.yaml" "$W/suite.json" "$OUT"/
    ;;
  fourth)  # deeper k-steps on 128 x 256, tile order with deep unrolling; the best again
    step control 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=32
    step wg256 240 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=41,42,43,44,45,46,47
    step again 90 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=256 --axis staged=31,32,34
    step default 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis wg=128 --axis staged=3
    ;;
esac
if [ -n "${OUT:-}" ]; then cp "$W"/*.txt "$OUT"/ 2>/dev/null; fi
