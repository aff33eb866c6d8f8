#!/usr/bin/env bash
# The bisect study of docs/performance.md ("Bisecting a planted slowdown"): in a clone of this
# repository, 32 commits after the commit under study, each a small code change (a comment line
# appended to one of two harness sources, so every commit builds and differs from its parent),
# one of them also the +PCT% copy/cpu patch of tests/study/build_slowed.sh; then
# `perfgate bisect CASE --good <study commit> --bad <32nd>` builds them in its worktree (the `ci`
# preset, the perfgate target, compiled through ccache) and measures each step A/B. Once per
# planted position, each on commits of its own; the build folder is shared between repetitions.
#
#   tests/study/bisect_planted.sh OUTDIR [POSITION...]     (positions 1..32; default 5 12 19 26 32)
#
# Prints one line per repetition: planted, found, builds, steps, wall and build seconds, the
# culprit's ratio and interval; OUTDIR/rep-<position>.{json,txt,err} keep the details.
# Environment: PERFGATE (the binary running the bisect; default build/perfgate), CASE (default
# copy/cpu/n=1048576), PCT (default 10), MAX_BUILDS (default 12).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [POSITION...]" >&2; exit 2; }
out=$1; shift
positions=("$@")
[ ${#positions[@]} -gt 0 ] || positions=(5 12 19 26 32)
src=$(cd "$(dirname "$0")/../.." && pwd)
perfgate=${PERFGATE:-$src/build/perfgate}
case_id=${CASE:-copy/cpu/n=1048576}
pct=${PCT:-10}
mkdir -p "$out"
out=$(cd "$out" && pwd)
base=$(git -C "$src" rev-parse HEAD)
[ -d "$out/repo/.git" ] || git clone -q "$src" "$out/repo"
repo="$out/repo"
git -C "$repo" config user.email study@example.com
git -C "$repo" config user.name "bisect study"
slowed=$(PATCH_ONLY=1 PERFGATE_SOURCE_DIR="$src" bash "$src/tests/study/build_slowed.sh" copy/cpu "$pct" "$out/slowed" | tail -1)
touched=(harness/src/report/xml_escape.cpp harness/src/report/markdown_text.cpp)

for pos in "${positions[@]}"; do
  git -C "$repo" checkout -q --detach "$base"
  planted=
  for i in $(seq 1 32); do
    file="$repo/${touched[$((i % ${#touched[@]}))]}"
    echo "// bisect study, position $pos: commit $i" >> "$file"
    message="study $pos: commit $i"
    if [ "$i" = "$pos" ]; then
      cp "$slowed" "$repo/kernels/copy/copy.cpp"
      message="study $pos: commit $i, copy does ${pct}% more work"
    fi
    git -C "$repo" commit -qam "$message"
    [ "$i" = "$pos" ] && planted=$(git -C "$repo" rev-parse HEAD)
  done
  tip=$(git -C "$repo" rev-parse HEAD)
  status=0
  "$perfgate" bisect "$case_id" --source "$repo" --good "$base" --bad "$tip" --work-dir "$out/work" \
    --max-builds "${MAX_BUILDS:-12}" --configure 'cmake --preset ci -DPERFGATE_TESTS=OFF' \
    --build 'cmake --build build --target perfgate' --binary '{source}/build/perfgate' \
    --json "$out/rep-$pos.json" > "$out/rep-$pos.txt" 2> "$out/rep-$pos.err" || status=$?
  python3 - "$out/rep-$pos.json" "$planted" "$pos" "$status" <<'PY'
import json, sys
o, planted, pos, status = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
c = o["culprits"][0]["step"] if o["culprits"] else None
found = "found" if o["first_bad"] == planted else f"NOT found ({o['end']}, first_bad {o['first_bad']})"
ratio = f"x{c['ratio']:.3f} [{c['interval'][0]:.3f}, {c['interval'][1]:.3f}]" if c else "-"
total = f"x{o['total']['ratio']:.3f}" if o.get("total") else "-"
print(f"planted at {pos:>2}: {found}; exit {status}; {o['builds']} builds, {len(o['steps'])} steps, "
      f"{o['wall_s']:.0f} s (building {o['build_s']:.0f} s, measuring {o['measure_s']:.0f} s); "
      f"culprit {ratio}; total {total}")
PY
done
