#!/usr/bin/env bash
# The gate's promise on a noisy 2-core machine: a baseline just proposed and approved here
# passes A/A three times in a row under the repository's thresholds, and the same kernels made
# ~2x slower (run on half of the OpenMP threads they were baselined with) fail with `regressed`
# under a 25% threshold on raw time, each confirmed by a fresh process. (The repository's own thresholds judge CPU machines on
# calibrated relative time, and half the threads slow the reference workload as much as the
# kernel: an environment change, which calibration is there to cancel, unlike a code change.)
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_BUILD_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/baselines"
cases=("triad/cpu/n=1048576" "fma_peak/cpu/n=16384,iters=1024")
opts=(--baselines "$tmp/baselines" --cache-dir "$tmp/cache" --backend cpu)

"$PERFGATE" baseline propose --runs 5 --out "$tmp/candidate.yaml" "${opts[@]}" "${cases[@]}"
"$PERFGATE" baseline approve "$tmp/candidate.yaml" --by "e2e" --reason "A/A test" --yes \
  --baselines "$tmp/baselines"

# A/A: three times in a row, each a separate perfgate check process.
for round in 1 2 3; do
  for c in "${cases[@]}"; do
    set +e
    out=$("$PERFGATE" check "$c" "${opts[@]}" --require-baseline 2>&1)
    rc=$?
    set -e
    echo "$out"
    if [ "$rc" -ne 0 ]; then
      echo "FAIL: A/A round $round: $c exited $rc" >&2
      exit 1
    fi
  done
done

# ~2x slower: half the threads. (Busy loops beside the kernel are no substitute: a scheduler
# may give them far less than half of each core.)
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
  echo "SKIP: the slowdown half needs 2 or more cores"
  exit 77
fi
mkdir -p "$tmp/strict"
cat > "$tmp/strict/strict.yaml" <<'YAML'
defaults:
  sampling: {min_samples: 20}
  metrics:
    latency_ns: {direction: lower, max_regression_pct: 25, min_change: 1000}
    bandwidth_gbps: {direction: higher, max_regression_pct: 25}
    gflops: {direction: higher, max_regression_pct: 25}
YAML
for c in "${cases[@]}"; do
  set +e
  out=$(OMP_NUM_THREADS=$((cores / 2)) "$PERFGATE" check "$c" "${opts[@]}" --thresholds "$tmp/strict" 2>&1)
  rc=$?
  set -e
  echo "$out"
  if [ "$rc" -ne 1 ] || ! grep -q ": regressed" <<<"$out"; then
    echo "FAIL: on half the threads $c exited $rc, expected 1 (regressed)" >&2
    exit 1
  fi
  # The regression stood only after a process of its own measured it again (the child inherits
  # OMP_NUM_THREADS: the slowdown is there too).
  if ! grep -q "confirmed by 1 fresh process (latency_ns +" <<<"$out"; then
    echo "FAIL: $c: the regression was not confirmed by a fresh process" >&2
    exit 1
  fi
done
echo "OK: A/A passed 3 times; 2x slowdown regressed"
