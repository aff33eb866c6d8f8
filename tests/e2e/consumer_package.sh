#!/usr/bin/env bash
# Another project uses perfgate through find_package(perfgate): install perfgate into a prefix,
# build tests/consumer against it, and run its discovered perf test through real ctest.
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
cmake --install "$PERFGATE_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$PERFGATE_SOURCE_DIR/tests/consumer" -B "$tmp/build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix"
cmake --build "$tmp/build" -j 2
"$tmp/build/consumer_perfgate" list | grep -c "scale/cpu/n=65536" >/dev/null || { echo "FAIL: case not listed" >&2; exit 1; }
export PERFGATE_CACHE_DIR="$tmp/cache"
"$tmp/build/consumer_perfgate" run --backend cpu --baselines "$tmp/baselines" --thresholds "$PERFGATE_SOURCE_DIR/thresholds" --quiet --no-judge
ctest --test-dir "$tmp/build" -N | grep -c "scale/cpu/n=65536" >/dev/null || { echo "FAIL: no ctest test" >&2; exit 1; }
echo OK
