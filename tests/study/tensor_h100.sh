#!/usr/bin/env bash
# The tensor-core ceilings and kernels on a GPU machine (device tool; a study, not a test): the
# subgroup tensor peak (KHR or NV), a sweep of the workgroup-scope peak (VK_NV_cooperative_matrix2)
# and of matmul_f16 at 4096^3 over its paths, tiles and workgroups. Every case is checked against
# its CPU reference on random data before it is timed. Logs go to WORK (default /tmp/tensor),
# packed into $OUT/tensor.tgz when OUT is set.
#   . .device/env.sh && PERFGATE=.study/tensor/perfgate bash .study/tensor/tensor_h100.sh
set -uo pipefail
B=${PERFGATE:-build/perfgate}
W=${WORK:-/tmp/tensor}
mkdir -p "$W"
O=(--backend vulkan --seed 1 --cache-dir "$W/cache" --thresholds thresholds --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
step() {
  local name=$1 limit=$2
  shift 2
  echo "== $name [$(date +%s)]"
  timeout "$limit" "$@" >"$W/$name.txt" 2>&1
  echo "rc $?"
  grep -E '^(tensor|matmul)|error|skip|[0-9]+ cases' "$W/$name.txt" | cut -c1-160 | head -60
}
step list 30 "$B" list --backend vulkan 'tensor_peak*' 'matmul_f16'
step peak 120 "$B" run "${O[@]}" 'tensor_peak/*' --axis n=65536 --axis iters=512
step peak_wg 150 "$B" run "${O[@]}" 'tensor_peak_workgroup/*' --axis tm=64,128 --axis tn=64,128 --axis chains=2,4
step f16_nv 60 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
step f16_wg 200 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis staged=3,4 --axis tile=64,128,256 --axis wg=128,256
step propose 200 "$B" baseline propose --backend vulkan --cache-dir "$W/cache" --thresholds thresholds 'tensor_peak*' --out "$W/candidate.yaml"
if [ -n "${OUT:-}" ]; then tar czf "$OUT/tensor.tgz" -C "$W" --exclude cache .; fi
