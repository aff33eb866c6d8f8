#!/usr/bin/env bash
# The gate's promise on a noisy 2-core machine: a baseline just proposed and approved here
# passes A/A three times in a row through real ctest, and a machine made ~2x slower from
# outside (busy loops on every core) fails with `regressed`.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_BUILD_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/baselines"
cases=("triad/cpu/n=1048576" "fma_peak/cpu/n=16384,iters=1024")
opts=(--baselines "$tmp/baselines" --cache-dir "$tmp/cache" --backend cpu)

"$PERFGATE" baseline propose --runs 3 --out "$tmp/candidate.yaml" "${opts[@]}" "${cases[@]}"
"$PERFGATE" baseline approve "$tmp/candidate.yaml" --by "e2e" --reason "A/A test" --yes \
  --baselines "$tmp/baselines"

# A/A: three times in a row, each through the real ctest of the build tree.
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

# 2x slower from outside: one busy loop per core while checking.
pids=()
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for c in "${cases[@]}"; do
  set +e
  out=$("$PERFGATE" check "$c" "${opts[@]}" 2>&1)
  rc=$?
  set -e
  echo "$out"
  if [ "$rc" -ne 1 ] || ! grep -q ": regressed" <<<"$out"; then
    echo "FAIL: under load $c exited $rc, expected 1 (regressed)" >&2
    exit 1
  fi
done
echo "OK: A/A passed 3 times; 2x slowdown regressed"
