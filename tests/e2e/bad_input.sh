#!/usr/bin/env bash
# Bad input gets exit 2 and one clear line naming the file, line or value; nothing stored changes.
# Runs beside other tests: it asserts refusals, which come before anything is measured.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/thresholds" "$tmp/baselines"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
fail=0
expect() {  # expect CODE PATTERN -- command...
  local code=$1 pattern=$2
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -Eq "$pattern" <<<"$out"; then
    echo "FAIL: '$*' exited $rc (want $code), output:"
    echo "$out"
    fail=1
  else
    echo "ok: $* -> $rc: $(grep -E "$pattern" <<<"$out" | head -1)"
  fi
}
run=(--backend cpu --baselines "$tmp/baselines" --cache-dir "$tmp/cache" --axis n=4096 --kernel copy)

expect 2 "matches no case" -- "$PERFGATE" run --backend cpu "nosuch/*"
expect 2 "matches no kernel" -- "$PERFGATE" run --backend cpu --kernel "nosuch*"
expect 2 "no selected kernel has this axis" -- "$PERFGATE" run --backend cpu --kernel copy --axis tile=16
expect 2 "not an integer" -- "$PERFGATE" run --backend cpu --axis n=lots
expect 2 "nosuch-dir" -- "$PERFGATE" run "${run[@]}" --thresholds "$tmp/nosuch-dir"

printf 'defaults:\n  significance: 0.01\n  metrics:\n    latency_ns: {direction: lower, max_regresion_pct: 10}\n' \
  > "$tmp/thresholds/typo.yaml"
expect 2 "typo.yaml:4.*max_regresion_pct" -- "$PERFGATE" run "${run[@]}" --thresholds "$tmp/thresholds"
printf 'defaults:\n  significance: [oops\n' > "$tmp/thresholds/typo.yaml"
expect 2 "typo.yaml:[0-9]+" -- "$PERFGATE" run "${run[@]}" --thresholds "$tmp/thresholds"
printf 'defaults:\n  significance: lots\n' > "$tmp/thresholds/typo.yaml"
expect 2 "typo.yaml:2.*significance" -- "$PERFGATE" run "${run[@]}" --thresholds "$tmp/thresholds"

# A truncated baseline file names the file; nothing else under baselines/ changes.
machine=$("$PERFGATE" list --machine-id --backend cpu)
mkdir -p "$tmp/baselines/$machine"
printf 'schema: 1\nkernel: copy\ncases:\n  "copy/cpu/n=4096":\n    runs: {latency_ns: [[1, 2' \
  > "$tmp/baselines/$machine/copy.yaml"
before=$(sha256sum "$tmp/baselines/$machine/copy.yaml")
expect 2 "copy.yaml" -- "$PERFGATE" check copy/cpu/n=4096 --baselines "$tmp/baselines" --cache-dir "$tmp/cache"
[ "$before" = "$(sha256sum "$tmp/baselines/$machine/copy.yaml")" ] || { echo "FAIL: baseline changed"; fail=1; }
# A shipped baseline cut short at a line end inside its last case's runs (still valid YAML): its
# last metric keeps fewer runs than the others. Refused naming the file and line, not judged on
# what is left.
mkdir -p "$tmp/cut/cpu-amd-epyc-2t"
head -n -2 "$PERFGATE_SOURCE_DIR/baselines/cpu-amd-epyc-2t/copy.yaml" > "$tmp/cut/cpu-amd-epyc-2t/copy.yaml"
# (A file with run_counts, as approve writes now, is told by those; an older one by its other metrics.)
expect 2 "copy.yaml:[0-9]+: cases.copy/cpu/n=33554432.runs.relative_latency: 3 runs, but (run_counts says|latency_ns has) 5" -- \
  "$PERFGATE" baseline show --baselines "$tmp/cut"

# A name or reason that is not UTF-8 (a terminal in another encoding): exit 2 naming the option.
expect 2 "by: is not valid UTF-8" -- "$PERFGATE" baseline drop 'copy/*' --by "$(printf 'Ad\xe9le')" --reason r \
  --yes --baselines "$tmp/utf8"
expect 2 "reason: is not valid UTF-8" -- "$PERFGATE" baseline drop 'copy/*' --by Ada --reason "$(printf '\xff')" \
  --yes --baselines "$tmp/utf8"

# Axis values a kernel cannot take, values that overflow and ranges without end: exit 2, the
# axis and the value named, in every command that selects cases; nothing is measured.
sel=(--backend cpu --kernel copy --baselines "$tmp/baselines" --cache-dir "$tmp/cache")
expect 2 "axis n=0 is out of range for kernel copy \(allowed: 1 to 4294967296\)" -- "$PERFGATE" run "${sel[@]}" --axis n=0
expect 2 "axis n=-5 is out of range" -- "$PERFGATE" run "${sel[@]}" --axis n=-5
expect 2 "axis n=99999999999999 is out of range" -- "$PERFGATE" run "${sel[@]}" --axis n=99999999999999
expect 2 "axis n=0 is out of range" -- "$PERFGATE" check copy/cpu/n=0 --baselines "$tmp/baselines" --cache-dir "$tmp/cache"
expect 2 "'99999999999999G' is too large" -- "$PERFGATE" list --ctest --backend cpu --kernel copy --axis n=99999999999999G
expect 2 "axis n=8589934592 is out of range" -- timeout 20 "$PERFGATE" list --ctest --backend cpu --kernel copy --axis n=1:9223372036854775807:x2
expect 2 "gives more than 4096 values" -- timeout 20 "$PERFGATE" list --backend cpu --kernel copy --axis n=1:9223372036854775807:+1
expect 2 "axis iters=0 is out of range for kernel fma_peak" -- "$PERFGATE" run --backend cpu --kernel fma_peak --axis iters=0
expect 2 "axis n=0 is out of range" -- "$PERFGATE" baseline propose --runs 2 --out "$tmp/c.yaml" "${sel[@]}" --axis n=0
[ ! -e "$tmp/c.yaml" ] || { echo "FAIL: a refused propose wrote a candidate"; fail=1; }

expect 2 "no kernel named 'nosuch'" -- "$PERFGATE" check nosuch/cpu/n=1
expect 2 "cannot open results file|No such file|does not exist" -- "$PERFGATE" compare "$tmp/a.json" "$tmp/b.json"
exit $fail
