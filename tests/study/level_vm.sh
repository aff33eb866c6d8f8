#!/usr/bin/env bash
# Detection study on a 2-vCPU VM for the level rule (docs/measuring.md, "A device's level"),
# right after first contact: the default CPU suite proposed and approved on this host into a
# scratch folder (one period, no history), then, each check or run a process of its own:
#   1. one period: N checks of copy/cpu by the build doing 2x its work and N by this build, the
#      same of matmul/cpu by the build doing 2x its multiply-adds, and of copy n=2^20 on llvmpipe;
#   2. as another host of the class (PERFGATE_HOST_ID=study-host-b), RUNS runs of the default CPU
#      suite, each judged with the history of the runs before it and then appended as
#      ci/history.sh appends a gated run (report --append-history); run SLOW_AT is made by the
#      build doing 2x copy's work;
#   3. with that history: N checks of copy/cpu n=2^20 as that host by the build doing 10% more
#      work and N by this build.
# Results in OUTDIR (steps.txt says what each step gave).
#
#   tests/study/level_vm.sh OUTDIR N RUNS SLOW_AT MATMUL_2X COPY_2X COPY_10 VULKAN_COPY_2X
# The slowed binaries: tests/study/build_slowed.sh matmul/cpu 100, copy/cpu 100, copy/cpu 10 and
# copy/vulkan 100. A second call with the same OUTDIR keeps its approved baselines. (Until
# 61a6337 this script took OUTDIR N SLOW_CPU SLOW_VULKAN [M]: copy alone, no suite runs.)
set -uo pipefail
out=$1 n=$2 runs=$3 slow_at=$4 matmul2x=$5 copy2x=$6 copy10=$7 vk2x=$8
mkdir -p "$out"
b="$out/baselines" h="$out/hist"
log() { echo "$(date +%T) $*" >> "$out/steps.txt"; }
count() { python3 "$(dirname "$0")/level_counts.py" "$out"/$1-*.json; }
if [ ! -d "$b" ]; then
  t0=$(date +%s)
  build/perfgate baseline propose --backend cpu --baselines "$b" --out "$out/cpu.yaml" > "$out/propose-cpu.txt" 2>&1
  build/perfgate baseline approve "$out/cpu.yaml" --baselines "$b" --by study --reason first-contact --yes >> "$out/propose-cpu.txt" 2>&1
  build/perfgate baseline propose 'copy/vulkan/n=1048576,wg=256' --backend vulkan --baselines "$b" --out "$out/vk.yaml" > "$out/propose-vk.txt" 2>&1
  build/perfgate baseline approve "$out/vk.yaml" --baselines "$b" --by study --reason first-contact --yes >> "$out/propose-vk.txt" 2>&1
  log "proposed and approved in $(($(date +%s) - t0)) s"
fi
checks() {  # NAME COUNT BINARY CASES [ENV...]
  local name=$1 count=$2 binary=$3 cases=$4
  shift 4
  for i in $(seq 1 "$count"); do
    env "$@" "$binary" check "$cases" --baselines "$b" --json "$out/$name-$i.json" > "$out/$name-$i.txt" 2>&1
  done
  log "$name: $(count "$name")"
}
checks copy-2x "$n" "$copy2x" 'copy/cpu/*'
checks copy-aa "$n" build/perfgate 'copy/cpu/*'
checks matmul-2x "$n" "$matmul2x" 'matmul/cpu/*'
checks matmul-aa "$n" build/perfgate 'matmul/cpu/*'
checks vk-2x "$n" "$vk2x" 'copy/vulkan/n=1048576,wg=256'
checks vk-aa "$n" build/perfgate 'copy/vulkan/n=1048576,wg=256'
mkdir -p "$h"
for i in $(seq 1 "$runs"); do
  binary=build/perfgate
  [ "$i" = "$slow_at" ] && binary=$copy2x
  t0=$(date +%s)
  PERFGATE_HOST_ID=study-host-b PERFGATE_HISTORY=$h "$binary" run --backend cpu --baselines "$b" --color never \
    --json "$out/suite-$i.json" > "$out/suite-$i.txt" 2>&1
  rc=$?
  PERFGATE_HOST_ID=study-host-b build/perfgate report "$out/suite-$i.json" --history "$h" --append-history > /dev/null 2>&1
  log "suite run $i ($binary): exit $rc in $(($(date +%s) - t0)) s: $(python3 "$(dirname "$0")/level_counts.py" "$out/suite-$i.json")"
done
checks copy10-hist "$n" "$copy10" 'copy/cpu/n=1048576' PERFGATE_HOST_ID=study-host-b PERFGATE_HISTORY="$h"
checks copyaa-hist "$n" build/perfgate 'copy/cpu/n=1048576' PERFGATE_HOST_ID=study-host-b PERFGATE_HISTORY="$h"
log done
