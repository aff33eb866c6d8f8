#!/usr/bin/env bash
# Files anyone can get merged (baselines, thresholds) cannot stall or exhaust the gate: an
# alias-amplified baseline, a billion-laughs block, oversized files and absurd sample counts are
# refused fast with exit 2 and the file named, and nothing stored changes.
# Runs beside other tests: it asserts refusals, which come before anything is measured.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"
case_id="copy/cpu/n=4096"
"$PERFGATE" baseline propose --runs 2 --quiet --out "$WORK/c.yaml" --baselines "$BASELINES" "${SELECT[@]}" \
  --thresholds "$PROPOSE_THRESHOLDS" --axis n=4096 >"$WORK/propose.log" 2>&1 || { cat "$WORK/propose.log"; fail "propose"; exit 1; }
approve "$WORK/c.yaml" alice "first" >/dev/null || { fail "approve"; exit 1; }
copy="$BASELINES/$MACHINE/copy.yaml"
cp "$copy" "$WORK/good-copy.yaml"

# refused KIND: the gate and `baseline show` both exit 2 within 20 s naming the file, and the
# baselines folder is as it was. The check refuses before it measures anything: given a cache
# folder without the device's peaks, it leaves none there (measuring them takes seconds, on a
# busy machine more than the 20).
refused() {
  local what=$1 pattern=$2
  local before
  before=$(snapshot)
  rm -rf "$WORK/no-peaks" && mkdir -p "$WORK/no-peaks"
  expect 2 "$pattern" -- timeout 20 "$PERFGATE" check "$case_id" --baselines "$BASELINES" --cache-dir "$WORK/no-peaks"
  compgen -G "$WORK/no-peaks/peaks-*" >/dev/null && fail "$what: the check measured the device's peaks before refusing"
  expect 2 "$pattern" -- timeout 20 "$PERFGATE" baseline show --baselines "$BASELINES"
  [ "$before" = "$(snapshot)" ] || fail "$what: the baselines folder changed"
}

# One anchored list of 100,000 samples and 1,000 aliases of it: ~480 KB that yaml-cpp would
# expand into 100 million samples.
python3 - "$WORK/good-copy.yaml" "$copy" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
out, i, in_runs = [], 0, False
while i < len(lines):
    line = lines[i]
    out.append(line)
    if line.strip() == "runs:":
        in_runs = True
    if in_runs and line.strip() == "latency_ns:":
        out.append("        - &r [" + ", ".join(str(10 + k % 7) for k in range(100000)) + "]")
        out.extend(["        - *r"] * 1000)
        i += 1
        while i < len(lines) and lines[i].startswith("        - "):
            i += 1
        continue
    i += 1
open(sys.argv[2], "w").write("\n".join(out))
PY
size=$(wc -c <"$copy")
[ "$size" -gt 400000 ] && [ "$size" -lt 600000 ] || fail "the hostile file is $size bytes, not ~480 KB"
refused "aliases" "copy.yaml:[0-9]+: an anchor"

# A billion-laughs block prepended: the anchors are refused, and so is the unknown key.
{
  echo 'lol1: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
  for k in 2 3 4 5 6 7 8 9; do echo "lol$k: &a$k [*a,*a,*a,*a,*a,*a,*a,*a,*a]"; done
  cat "$WORK/good-copy.yaml"
} >"$copy"
refused "billion laughs" "copy.yaml:1: an anchor"
{ echo "lol: [lol, lol]"; cat "$WORK/good-copy.yaml"; } >"$copy"
refused "unknown key" "copy.yaml:1: lol: unknown key"
# A proposal compared with an approved file that cannot be read keeps its runs: the candidate is
# written first, then the error names the file; once the file is mended the candidate is whole.
before=$(snapshot)
expect 2 "copy.yaml:1: lol: unknown key" -- "$PERFGATE" baseline propose --runs 2 --quiet --out "$WORK/kept.yaml" \
  --baselines "$BASELINES" "${SELECT[@]}" --thresholds "$PROPOSE_THRESHOLDS" --axis n=4096
[ "$before" = "$(snapshot)" ] || fail "a proposal refused for a bad baseline changed the baselines folder"
cp "$WORK/good-copy.yaml" "$copy"
expect 0 "digest ok" -- "$PERFGATE" baseline diff "$WORK/kept.yaml" --baselines "$BASELINES"

# Over the size limit (sparse: the limit is checked before a byte is read).
cp "$WORK/good-copy.yaml" "$copy"
truncate -s 70M "$copy"
refused "size" "copy.yaml: 70 MiB, over the limit of 64 MiB"

# More samples in one run than any real run keeps.
python3 - "$WORK/good-copy.yaml" "$copy" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
i = text.index("      latency_ns:\n", text.index("    runs:"))
j = text.index("\n", i + len("      latency_ns:\n"))
text = text[:i] + "      latency_ns:\n        - [" + ", ".join(["1000"] * 100001) + "]" + text[j:]
open(sys.argv[2], "w").write(text)
PY
refused "samples" "copy.yaml:[0-9]+: cases.copy/cpu/n=4096.runs.latency_ns: 100001 numbers, over the limit"
cp "$WORK/good-copy.yaml" "$copy"

# A 100 MB thresholds file: refused before reading, naming the file and the limit.
mkdir -p "$WORK/thresholds"
cp "$PERFGATE_SOURCE_DIR/thresholds/default.yaml" "$WORK/thresholds/"
truncate -s 100M "$WORK/thresholds/huge.yaml"
expect 2 "huge.yaml: 100 MiB, over the limit of 1 MiB" -- timeout 20 "$PERFGATE" check "$case_id" \
  --baselines "$BASELINES" --cache-dir "$WORK/cache" --thresholds "$WORK/thresholds"
printf 'x: &t {direction: lower}\ndefaults: {significance: 0.01}\n' >"$WORK/thresholds/huge.yaml"
expect 2 "huge.yaml:1: an anchor" -- timeout 20 "$PERFGATE" check "$case_id" \
  --baselines "$BASELINES" --cache-dir "$WORK/cache" --thresholds "$WORK/thresholds"

# A candidate with an alias is refused too, and approving it changes nothing.
before=$(snapshot)
sed 's/^run_ids:/run_ids: \&ids/' "$WORK/c.yaml" >"$WORK/alias-candidate.yaml"
expect 2 "alias-candidate.yaml:[0-9]+: an anchor" -- approve "$WORK/alias-candidate.yaml" mallory "aliases"
[ "$before" = "$(snapshot)" ] || fail "a refused candidate changed the baselines"
exit $FAILED
