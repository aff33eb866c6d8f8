#!/usr/bin/env bash
# Floors on a shared CPU machine (a study, not a test): the calibrated stored-baseline gate with
# the shipped thresholds, each check a separate process. Proposes and approves a baseline of
# copy (both default points), matmul (compute-bound) and f16_matvec m=k=2560 (LLM) with the
# defaults, checks them N times (A/A), then N times with a build whose copy, matmul and
# f16_matvec do PCT% more work (tests/study/slowdown.py), and prints the counts
# (tests/study/count_verdicts.py). Run it once per condition (quiet; `taskset -c 1 sh -c
# 'while :; do :; done' &` beside it; a parallel build beside it) and say which on the page.
#
#   tests/study/floors_2core.sh PERFGATE OUTDIR [N=20] [PCT=10] [BACKEND=cpu]
#   e.g. tests/study/floors_2core.sh build/perfgate /tmp/floors-quiet
#
# The slowed build goes to OUTDIR/slow (built with the ci preset through ccache when present);
# BACKEND=vulkan runs copy alone on llvmpipe. PERFGATE_STUDY_CASES (globs, space-separated)
# replaces the CPU selection, e.g. 'copy/cpu/* f16_matvec/cpu/m=2560,k=2560' without matmul.
# tests/study/allowance_table.py OUTDIR/aa OUTDIR/slow-checks then prints each case's changes
# and the allowance each check had, with the spread it came from.
set -euo pipefail
perfgate=$(realpath "$1") out=$2 n=${3:-20} pct=${4:-10} backend=${5:-cpu}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ "$backend" = cpu ]; then
  sel=(--backend cpu 'copy/cpu/*' 'matmul/cpu/*' 'f16_matvec/cpu/m=2560,k=2560')
  if [ -n "${PERFGATE_STUDY_CASES:-}" ]; then read -ra cases <<< "$PERFGATE_STUDY_CASES"; sel=(--backend cpu "${cases[@]}"); fi
else
  sel=(--backend vulkan 'copy/vulkan/*')
fi
slow=$out/slow/build/perfgate
if [ ! -x "$slow" ]; then
  python3 "$root/tests/study/slowdown.py" copy n "$pct" "$out/slow"
  python3 "$root/tests/study/slowdown.py" --into-existing f16_matvec m "$pct" "$out/slow" kernels/common/row_plan.h
  python3 "$root/tests/study/slowdown.py" --into-existing matmul m "$pct" "$out/slow" kernels/common/matmul_plan.h
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # The copy's own folder as ccache's base: its unchanged units hit the cache of an earlier build.
  (cd "$out/slow" && export CCACHE_BASEDIR="$out/slow" CCACHE_NOHASHDIR=true &&
    cmake --preset ci "${launcher[@]}" -DPERFGATE_TESTS=OFF >configure.log 2>&1 &&
    cmake --build build --target perfgate >build.log 2>&1) || { echo "the slowed build failed: $out/slow/build.log" >&2; exit 2; }
fi
echo "== A/A: $n checks (load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$root/tests/study/aa_suite.sh" "$perfgate" "$out/aa" "$n" 100000 "${sel[@]}"
echo "== ${pct}% more work: $n checks (load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$root/tests/study/slowdown_checks.sh" "$slow" "$out/aa/baselines" "$out/slow-checks" "$n" 100000 "${sel[@]}"
echo "== counts (load average $(cut -d' ' -f1-3 /proc/loadavg))"
python3 "$root/tests/study/count_verdicts.py" "$out/aa" "$out/slow-checks"
