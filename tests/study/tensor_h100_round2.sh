#!/usr/bin/env bash
# Second round of tests/study/tensor_h100.sh: matmul_f16's workgroup-scope path with its blocks
# staged through shared memory (staged 3 and 4) at 4096^3 over tiles and workgroups, and a
# baseline candidate for tensor_peak_workgroup at its default point.
#   . .device/env.sh && PERFGATE=.study/tensor/perfgate bash .study/tensor/tensor_h100_round2.sh
set -uo pipefail
B=${PERFGATE:-build/perfgate}
W=${WORK:-/tmp/tensor2}
mkdir -p "$W"
O=(--backend vulkan --seed 1 --cache-dir "$W/cache" --thresholds thresholds --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096)
step() {
  local name=$1 limit=$2
  shift 2
  echo "== $name [$(date +%s)]"
  timeout "$limit" "$@" >"$W/$name.txt" 2>&1
  echo "rc $?"
  grep -E '^(tensor|matmul)|error|skip|[0-9]+ cases' "$W/$name.txt" | cut -c1-160 | head -40
}
step f16_wg 150 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3,4 --axis tile=64,128 --axis wg=128,256
step f16_nv 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
step propose 150 "$B" baseline propose --backend vulkan --cache-dir "$W/cache" --thresholds thresholds \
  'tensor_peak_workgroup' --out "$W/candidate.yaml"
if [ -n "${OUT:-}" ]; then tar czf "$OUT/tensor2.tgz" -C "$W" --exclude cache .; fi
