#!/usr/bin/env bash
# Last round of tests/study/tensor_h100.sh: matmul_f16's best H100 configuration at 4096^3 twice
# (separate processes), then the default Vulkan suite judged against the baselines and
# thresholds carried in .study/tensor (this branch's, with the new tensor_peak* baselines).
#   . .device/env.sh && PERFGATE=.study/tensor/perfgate bash .study/tensor/tensor_h100_final.sh
set -uo pipefail
B=${PERFGATE:-build/perfgate}
W=${WORK:-/tmp/tensor3}
D=${STUDY:-.study/tensor}
mkdir -p "$W"
O=(--backend vulkan --seed 1 --cache-dir "$W/cache" --thresholds "$D/thresholds" --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096 --axis staged=3 --axis wg=128 --axis tile=128)
step() {
  local name=$1 limit=$2
  shift 2
  echo "== $name [$(date +%s)]"
  timeout "$limit" "$@" >"$W/$name.txt" 2>&1
  echo "rc $?"
  grep -E '^(tensor|matmul)|error|regress|fail|[0-9]+ cases' "$W/$name.txt" | cut -c1-170 | head -40
}
step best1 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
step best2 40 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
step suite 260 "$B" run --backend vulkan --cache-dir "$W/cache" --thresholds "$D/thresholds" --baselines "$D/baselines" \
  --json "$W/suite.json"
tail -5 "$W/suite.txt"
if [ -n "${OUT:-}" ]; then tar czf "$OUT/tensor3.tgz" -C "$W" --exclude cache .; fi
