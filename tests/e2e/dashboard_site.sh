#!/usr/bin/env bash
# The dashboard as a person uses it: a real history made with perfgate itself (synthetic runs
# appended by `report --append-history` on two machines, one of them this one with an approved
# baseline of copy), a step in copy at run 30 on both machines (left open), one in triad at run 15
# (acknowledged with `history ack`) and one in rmsnorm at run 22 (bisected: a BISECTED.log record
# as `bisect --change-point` writes it, read back through the store), hostile strings planted in
# a case id, a branch, a machine id, an approver, a reason and a commit subject; and runs of
# copy n=8192 (approved too) from three more hosts of this machine id after its baseline: 5 at its
# kernel source (placed), 2 (3 short) and 4 at another source (none count). `perfgate
# dashboard` builds the site; Debian's Chromium, driven by playwright-core
# (tests/dashboard/browser_check.js), opens it from file:// and checks the pages.
# Skips (77) without Chromium, node or playwright-core (ci/install-web-deps.sh), or where the
# binary was built without uPlot.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"  # its proposal measures no peaks: measuring them is not its subject
die() { echo "FAIL: $*" >&2; exit 1; }

CHROMIUM=/usr/bin/chromium
WEB_DEPS="${PERFGATE_WEB_DEPS_DIR:-$HOME/.cache/perfgate/web}"
[ -x "$CHROMIUM" ] || { echo "no $CHROMIUM: skipping"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "no node: skipping"; exit 77; }
[ -f "$WEB_DEPS/node_modules/playwright-core/package.json" ] ||
  { echo "no playwright-core in $WEB_DEPS (ci/install-web-deps.sh): skipping"; exit 77; }

HISTORY="$WORK/history"
SITE="$WORK/site"
THRESHOLDS="$PERFGATE_SOURCE_DIR/thresholds"
ESC=$(printf '\033')
HOSTILE_CASE="rmsnorm/cpu/<script>window.__pwned=1</script>\"'[x](javascript:alert(1))${ESC}[31m"
HOSTILE_BRANCH="<img src=x onerror=\"window.__pwned=2\">"
HOSTILE_MACHINE="<b onmouseover=alert(3)>\"'[m](javascript:alert(3))"
HOSTILE_BY="<script>window.__pwned=4</script>mallory"
HOSTILE_REASON="\"quoted\" [link](javascript:alert(5)) <svg onload=alert(5)> ${ESC}]0;title"
HOSTILE_SUBJECT="fix: <img src=x onerror=\"window.__pwned=6\"> [docs](javascript:alert(6))"

# An approved baseline of copy/cpu/n=4096 and n=8192 on this machine, approved by a hostile name
# for a hostile reason; the synthetic copy runs sit at its level.
propose "$WORK/copy.yaml" 4096 8192 || die "propose"
approve "$WORK/copy.yaml" "$HOSTILE_BY" "$HOSTILE_REASON" >"$WORK/approve.out" 2>&1 || { cat "$WORK/approve.out"; die "approve"; }
approved() {  # approved CASE: the median of its runs' latency_ns medians (what the history's drift is against), its source hash and measured_at
  python3 - "$BASELINES/$MACHINE/copy.yaml" "$1" <<'PY'
import re, statistics, sys
text, case = open(sys.argv[1]).read(), sys.argv[2]
block = re.search(r"\n  " + re.escape(case) + r":\n((?:    .*\n)+)", text).group(1)
runs = re.search(r"\n +runs:\n(?:.*\n)*? +latency_ns:\n((?: +- \[.*\]\n)+)", block).group(1).splitlines()
print(statistics.median(statistics.median(float(x) for x in r.strip()[3:-1].split(",")) for r in runs),
      re.search(r"\n    source_hash: (\S+)", block).group(1), re.search(r"\n    measured_at: (\S+)", block).group(1))
PY
}
read -r LEVEL _ < <(approved copy/cpu/n=4096) && [ -n "$LEVEL" ] || die "no latency_ns median in the baseline of n=4096"
read -r LEVEL_8K SOURCE_8K MEASURED_8K < <(approved copy/cpu/n=8192) && [ -n "$MEASURED_8K" ] ||
  die "no latency_ns median, source or time in the baseline of n=8192"

# Two machines at the same commits: this one, and one whose id is hostile. `report
# --append-history` refuses an id that cannot name its file as it is (store/machine_id.h), so its
# runs are appended under a plain id and the file renamed: a file's name is the id every reader
# takes, so the site shows the hostile id as read from a history folder someone filled.
append() {  # append DIR: every run of DIR into the history
  local f
  for f in "$1"/run-*.json; do
    "$PERFGATE" report "$f" --history "$HISTORY" --append-history >/dev/null 2>>"$WORK/append.err" || die "append $f"
  done
}
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$WORK/runs-a" --runs 40 --machine "$MACHINE" \
  --case copy=copy/cpu/n=4096 --level "copy=$LEVEL" --step copy:30:10 --step triad:15:12 --step rmsnorm:22:15
python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$WORK/runs-b" --runs 40 --seed 2 \
  --machine hostile-machine --branch "$HOSTILE_BRANCH" --case copy=copy/cpu/n=4096 --case "rmsnorm=$HOSTILE_CASE" \
  --step copy:30:10
append "$WORK/runs-a"
append "$WORK/runs-b"
host_runs() {  # host_runs HOST FIRST RUNS SOURCE: gated runs of copy n=8192 on another host, after its baseline
  python3 "$PERFGATE_SOURCE_DIR/tests/history/synthetic_runs.py" --out "$WORK/runs-$1" --runs "$3" --first "$2" \
    --machine "$MACHINE" --kernels copy --case copy=copy/cpu/n=8192 --level "copy=$LEVEL_8K" --host-id "$1" \
    --source "copy=$4" --started-at "$MEASURED_8K" --seed 3
  append "$WORK/runs-$1"
}
host_runs host-b 100 5 "$SOURCE_8K"
host_runs host-c 110 2 "$SOURCE_8K"
host_runs host-d 120 4 sha256:another-source
mv "$HISTORY/hostile-machine.jsonl" "$HISTORY/$HOSTILE_MACHINE.jsonl" || die "renaming the hostile machine's history"

changes() { "$PERFGATE" history --changes --json --history "$HISTORY" --thresholds "$THRESHOLDS" --baselines "$BASELINES"; }
changes >"$WORK/changes.json" || die "history --changes"
read -r TRIAD_CP RMSNORM_CP < <(python3 - "$WORK/changes.json" "$MACHINE" <<'PY'
import json, sys
doc, machine = json.load(open(sys.argv[1])), sys.argv[2]
ids = {}
for c in doc["cases"]:
    for ch in c["changes"]:
        ids.setdefault((c["case"].split("/")[0], c["machine_id"]), []).append(ch)
triad, rms = ids[("triad", machine)], ids[("rmsnorm", machine)]
assert len(triad) == 1 and triad[0]["run_index"] == 15, triad
assert len(rms) == 1 and rms[0]["run_index"] == 22, rms
print(triad[0]["id"], rms[0]["id"])
PY
) || die "the planted steps of triad and rmsnorm were not found"
"$PERFGATE" history ack "$TRIAD_CP" --by "$HOSTILE_BY" --reason "$HOSTILE_REASON" --history "$HISTORY" \
  --thresholds "$THRESHOLDS" --baselines "$BASELINES" >/dev/null || die "history ack"
BISECTED_SHA="0022cccccccccccccccccccccccccccccccccccc"
python3 - "$HISTORY/BISECTED.log" "$RMSNORM_CP" "$BISECTED_SHA" "$HOSTILE_SUBJECT" <<'PY'
import json, sys
log, cp, sha, subject = sys.argv[1:]
record = {"id": cp, "commits": [{"sha": sha, "subject": subject, "change_pct": 15.2, "low_pct": 13.9,
                                  "high_pct": 16.4, "exact": True}], "builds": 5, "at": "2026-11-03T00:00:00Z"}
open(log, "a").write(json.dumps(record) + "\n")
PY
# What `history --changes` says of it is what the site must say.
# (Through a file: grep -q stops reading at its match, and under pipefail the writer's SIGPIPE fails the pipe.)
changes >"$WORK/bisected.json" || die "history --changes"
grep -q "$BISECTED_SHA" "$WORK/bisected.json" || die "history --changes does not read the planted BISECTED.log record"

"$PERFGATE" dashboard --history "$HISTORY" --baselines "$BASELINES" --thresholds "$THRESHOLDS" --out "$SITE" \
  >"$WORK/dashboard.out" 2>&1 || {
  grep -q "without its chart library" "$WORK/dashboard.out" && { cat "$WORK/dashboard.out"; exit 77; }
  cat "$WORK/dashboard.out"; die "perfgate dashboard"; }
cat "$WORK/dashboard.out"
# Every file the page names is inside the site; nothing outside is named.
for f in index.html assets/dashboard.js assets/dashboard.css assets/uPlot.iife.min.js assets/uPlot.min.css data/index.js; do
  [ -s "$SITE/$f" ] || die "the site lacks $f"
done
! grep -rqiE "(src|href)=[\"']?(https?:)?//" "$SITE/index.html" || die "the page names a network address"
! grep -rqF "<script>" "$SITE/data" || die "a data file holds a raw <script>"

# A line perfgate refuses is refused here too, naming the file and line; the site stays as it was.
FILE="$HISTORY/$MACHINE.jsonl"
cp "$FILE" "$WORK/history.bak"
echo '{"run_id": "cut' >>"$FILE"
"$PERFGATE" dashboard --history "$HISTORY" --out "$SITE" >"$WORK/broken.out" 2>&1
RC=$?
[ "$RC" = 2 ] || { cat "$WORK/broken.out"; die "a broken history line: exit $RC, want 2"; }
grep -q "$MACHINE.jsonl:$(wc -l <"$FILE")" "$WORK/broken.out" || { cat "$WORK/broken.out"; die "the error does not name the file and line"; }
[ -s "$SITE/data/index.js" ] || die "a refused build damaged the site"
cp "$WORK/history.bak" "$FILE"
# A rebuild replaces the site, named with a trailing slash too.
"$PERFGATE" dashboard --history "$HISTORY" --baselines "$BASELINES" --thresholds "$THRESHOLDS" --out "$SITE/" \
  >"$WORK/rebuild.out" 2>&1 || { cat "$WORK/rebuild.out"; die "rebuilding the site"; }
[ -s "$SITE/data/index.js" ] && [ -z "$(find "$WORK" -maxdepth 2 \( -name '*.building-*' -o -name '*.old-*' \))" ] ||
  die "a rebuild left the site incomplete or its staging folders behind"
# A folder that is not a dashboard's is never overwritten.
mkdir -p "$WORK/not-a-site" && echo keep >"$WORK/not-a-site/file"
"$PERFGATE" dashboard --history "$HISTORY" --out "$WORK/not-a-site" >"$WORK/refused.out" 2>&1
RC=$?
[ "$RC" = 2 ] && [ "$(cat "$WORK/not-a-site/file")" = keep ] || die "dashboard wrote over a folder that is not a site"

export NODE_PATH="$WEB_DEPS/node_modules"
timeout 300 node "$PERFGATE_SOURCE_DIR/tests/dashboard/browser_check.js" \
  --site "$SITE" --chromium "$CHROMIUM" --profile "$WORK/profile" --shots "$WORK/shots" \
  --machine "$MACHINE" --copy-range "0029cccccc..0030cccccc" --triad-cp "$TRIAD_CP" --rmsnorm-cp "$RMSNORM_CP" \
  --bisected "${BISECTED_SHA:0:10}" --hostile-case "$HOSTILE_CASE" --hostile-branch "$HOSTILE_BRANCH" \
  --hostile-by "$HOSTILE_BY" --hostile-reason "$HOSTILE_REASON" --hostile-subject "$HOSTILE_SUBJECT" \
  --calibrated-case copy/cpu/n=8192 \
  || die "the browser check failed (above)"
echo "ok"
