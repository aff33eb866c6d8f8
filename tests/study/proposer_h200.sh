#!/usr/bin/env bash
# Detection study on the GPU that proposed its own baseline: copy n=2^25 on the Vulkan backend
# proposed and approved into a scratch folder on GPU 0 (first contact: one proposal, no
# history), then N checks by the build doing 1% more work (each must fail) and N by this build
# (none may), each a process of its own (tests/study/multi_gpu_h200.sh's slowed1 and aacopy1
# steps). Results in OUTDIR; gpus.txt names the GPU.
#
#   tests/study/proposer_h200.sh OUTDIR SECONDS N
set -uo pipefail
out=$1 budget_s=$2 n=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvidia-smi --query-gpu=uuid,driver_version --format=csv > "$out/gpus.txt" 2>&1
start=$(date +%s)
dram='copy/vulkan/n=33554432,wg=256'
build/perfgate baseline propose "$dram" --backend vulkan --baselines "$out/b" --out "$out/candidate.yaml" > "$out/propose.txt" 2>&1
build/perfgate baseline approve "$out/candidate.yaml" --baselines "$out/b" --by study --reason first-contact --yes >> "$out/propose.txt" 2>&1
echo "proposed in $(($(date +%s) - start)) s" >> "$out/propose.txt"
BASELINES=$out/b/nvidia-h200 GPUS=1 "$here/multi_gpu_h200.sh" "$out/checks" $((budget_s - ($(date +%s) - start))) slowed1 "$n" aacopy1 "$n"
