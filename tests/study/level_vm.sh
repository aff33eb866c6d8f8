#!/usr/bin/env bash
# Detection study on a shared CPU host right after first contact (one period, no history): a
# proposal of copy on the CPU and on llvmpipe approved into a scratch baselines folder, then
# checks, each a process of its own, by this build (A/A) and by builds doing 2x the work (same
# case ids), on this host and as another host of the class (PERFGATE_HOST_ID), and the CTest path
# with the 2x build installed as the test binary. Results in OUTDIR.
#
#   tests/study/level_vm.sh OUTDIR N SLOW_CPU SLOW_VULKAN [M]
# SLOW_CPU, SLOW_VULKAN: perfgate binaries by tests/study/build_slowed.sh copy/cpu 100 and
# copy/vulkan 100. N checks each on this host's CPU, M (default N) as another host and on
# llvmpipe. A second call with the same OUTDIR keeps its approved baselines.
set -uo pipefail
out=$1 n=$2 slow_cpu=$3 slow_vk=$4 m=${5:-$2}
mkdir -p "$out"
b="$out/baselines"
count() { grep -ho "^copy/[a-z]*/n=[0-9]*[^:]*: [a-z]*" "$out"/$1-*.txt | sed 's/^.*: //' | sort | uniq -c | tr '\n' ' '; }
[ -d "$out/baselines" ] || {
build/perfgate baseline propose 'copy/cpu/*' --backend cpu --baselines "$b" --out "$out/cpu.yaml" > "$out/propose-cpu.txt" 2>&1
build/perfgate baseline approve "$out/cpu.yaml" --baselines "$b" --by study --reason first-contact --yes >> "$out/propose-cpu.txt" 2>&1
build/perfgate baseline propose 'copy/vulkan/n=1048576,wg=256' --backend vulkan --baselines "$b" --out "$out/vk.yaml" > "$out/propose-vk.txt" 2>&1
build/perfgate baseline approve "$out/vk.yaml" --baselines "$b" --by study --reason first-contact --yes >> "$out/propose-vk.txt" 2>&1
echo "$(date +%T) proposed" >> "$out/steps.txt"
}
checks() {  # NAME COUNT BINARY CASES [ENV...]
  local name=$1 count=$2 binary=$3 cases=$4
  shift 4
  for i in $(seq 1 "$count"); do
    env "$@" "$binary" check "$cases" --baselines "$b" --json "$out/$name-$i.json" > "$out/$name-$i.txt" 2>&1
  done
  echo "$(date +%T) $name: $(count "$name")" >> "$out/steps.txt"
}
checks cpu-2x "$n" "$slow_cpu" 'copy/cpu/*'
checks cpu-aa "$n" build/perfgate 'copy/cpu/*'
checks cpu-other-2x "$m" "$slow_cpu" 'copy/cpu/*' PERFGATE_HOST_ID=study-other-host
checks cpu-other-aa "$m" build/perfgate 'copy/cpu/*' PERFGATE_HOST_ID=study-other-host
checks vk-2x "$m" "$slow_vk" 'copy/vulkan/n=1048576,wg=256'
checks vk-aa "$m" build/perfgate 'copy/vulkan/n=1048576,wg=256'
