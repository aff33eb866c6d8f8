#!/usr/bin/env bash
# Why a proposal on a host of two GPUs can spread a case's runs wider than its checks: five
# processes each way, the median of copy n=2^25 on GPU 0 of each written to OUTDIR/diag.txt as it
# comes (docs/performance.md, "Two H200s of a host the rule was not chosen on"):
#   alone              the case alone, GPU 1 idle
#   shuffled-with-heavy the case among 6 others in a shuffled order (--order-seed), GPU 1 idle
#   beside-heavy-gpu1  the case alone while GPU 1 loops four compute-heavy cases
#   both-shuffled      the 7 cases on each GPU at once, each GPU in an order of its own, as
#                      `baseline propose` measures a host of several GPUs
#
#   tests/study/neighbour_modes.sh OUTDIR      (run from the repository root, build/perfgate built)
set -uo pipefail
out=$1
t0=$(date +%s)
dram='copy/vulkan/n=33554432,wg=256'
heavy=('tensor_peak_workgroup/*' 'matmul_f16/*' 'fma_peak/*' 'attention_fused/*')
mix=("$dram" 'cache_peak/*' 'fill/*' "${heavy[@]}")
work=$(mktemp -d)
median() {
  python3 - "$1" "$dram" <<'PY'
import json, statistics, sys
for case in json.load(open(sys.argv[1]))["cases"]:
    if case["id"] == sys.argv[2]:
        print("%.1f" % statistics.median(case["metrics"]["latency_ns"]["samples"]))
PY
}
note() { echo "$(($(date +%s) - t0))s $*" >> "$out/diag.txt"; }
run0() { build/perfgate run "$@" --device 0 --no-judge --json "$work/r.json" > /dev/null 2>&1; }

for i in 1 2 3 4 5; do run0 "$dram"; note "alone $i $(median "$work/r.json")"; done
for i in 1 2 3 4 5; do run0 "${mix[@]}" --order-seed $((i * 7)); note "shuffled-with-heavy $i $(median "$work/r.json")"; done
touch "$work/load"
(while [ -f "$work/load" ]; do build/perfgate run "${heavy[@]}" --device 1 --no-judge > /dev/null 2>&1; done) &
for i in 1 2 3 4 5; do run0 "$dram"; note "beside-heavy-gpu1 $i $(median "$work/r.json")"; done
rm -f "$work/load"
wait
for i in 1 2 3 4 5; do
  run0 "${mix[@]}" --order-seed $((i * 7)) &
  build/perfgate run "${mix[@]}" --device 1 --order-seed $((i * 7 + 3)) --no-judge > /dev/null 2>&1
  wait
  note "both-shuffled $i $(median "$work/r.json")"
done
note done
rm -rf "$work"
