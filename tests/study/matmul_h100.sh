#!/usr/bin/env bash
# The 4096^3 matmul sweep on a GPU machine (device tool; a study, not a test): matmul_f16 over
# tile x wg x staged (0 fragments from global memory, 1 one shared buffer, 2 two) and the f32
# matmul over tile x wg, beside BASE (another perfgate binary, e.g. the previous commit's) at
# their defaults. Prints the tables; logs go to $OUT.
#   . .device/env.sh && PERFGATE=.mm/perfgate BASE=.mm/perfgate_base bash tests/study/matmul_h100.sh
set -uo pipefail
B=${PERFGATE:-build/perfgate}
OUT=${OUT:-/tmp/matmul_h100}
mkdir -p "$OUT"
O=(--backend vulkan --seed 1 --cache-dir "$OUT" --thresholds thresholds --baselines baselines --no-judge)
S=(--axis m=4096 --axis n=4096 --axis k=4096)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
step() {
  local name=$1
  shift
  echo "== $name"
  timeout "${T:-150}" "$@" >"$OUT/$name.txt" 2>&1
  grep -E '^(matmul|  error)' "$OUT/$name.txt"
}
step f16 "$B" run "${O[@]}" 'matmul_f16/*' "${S[@]}" --axis tile=64,128 --axis wg=128,256 --axis staged=1,2
step f32 "$B" run "${O[@]}" 'matmul/*' "${S[@]}" --axis tile=64,128 --axis wg=128,256,512
if [ -n "${BASE:-}" ]; then
  step f16_base "$BASE" run "${O[@]}" 'matmul_f16/*' "${S[@]}"
  step f32_base "$BASE" run "${O[@]}" 'matmul/*' "${S[@]}"
fi
cat "$OUT"/peaks-*.json
