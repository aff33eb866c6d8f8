#!/usr/bin/env bash
# Detection study on a GPU none of the baseline's runs measured (a fresh lease usually gives
# one; gpus.txt names its uuid), judged against BASELINES proposed on another GPU of the model:
#   1. before any history of this GPU: N0 checks of copy n=2^25 by the build doing 1% more work
#      (none may pass) and N2 by the build doing 100% more work (each must fail);
#   2. RUNS copy-only gated runs of the normal build appended to a history as ci/history.sh
#      appends them (report --append-history, their real kernel source), each judged with the
#      history before it;
#   3. with that history: N checks by the 1%-slower build and N by the normal one.
# Each check is a process of its own (tests/study/multi_gpu_h200.sh's steps), results in OUTDIR.
#
#   BASELINES=DIR tests/study/device_level_h200.sh OUTDIR SECONDS N0 N2 RUNS N
set -uo pipefail
out=$1 budget_s=$2 n0=$3 n2=$4 runs=$5 n=$6
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/hist"
nvidia-smi --query-gpu=uuid,driver_version --format=csv > "$out/gpus.txt" 2>&1
start=$(date +%s)
left() { echo $((budget_s - ($(date +%s) - start))); }
GPUS=1 "$here/multi_gpu_h200.sh" "$out/before" $(( budget_s * 2 / 5 )) slowed1 "$n0" slowed-by 100 "$n2"
dram='copy/vulkan/n=33554432,wg=256'
export PERFGATE_HISTORY=$out/hist
for i in $(seq 1 "$runs"); do
  build/perfgate run "$dram" --device 0 --color never --json "$out/hist-run-$i.json" > "$out/hist-run-$i.txt" 2>&1
  build/perfgate report "$out/hist-run-$i.json" --history "$out/hist" --append-history > /dev/null 2>&1
  echo "history run $i appended" >> "$out/steps.txt"
done
HISTORY=$out/hist GPUS=1 "$here/multi_gpu_h200.sh" "$out/after" "$(left)" slowed1 "$n" aacopy1 "$n"
