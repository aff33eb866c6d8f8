#!/usr/bin/env bash
# The dashboard at scale (docs/performance.md, "The dashboard at 800k history lines"): a history
# of RUNS x CASES x MACHINES lines (tests/bench/dashboard_history.py), `perfgate dashboard` over it
# timed with its peak memory, the site's size, and in headless Chromium the front page's time to
# interactive and a case page's load (tests/bench/dashboard_timing.js). A benchmark, not a test.
#   tests/bench/dashboard_scale.sh build/perfgate [WORK] [RUNS CASES MACHINES]
set -euo pipefail
perfgate="$(realpath "${1:?usage: dashboard_scale.sh PERFGATE [WORK] [RUNS CASES MACHINES]}")"
work="${2:-$(mktemp -d)}"
runs="${3:-1000}" cases="${4:-200}" machines="${5:-4}"
here="$(cd "$(dirname "$0")" && pwd)"
web="${PERFGATE_WEB_DEPS_DIR:-$HOME/.cache/perfgate/web}/node_modules"
mkdir -p "$work"
[ -d "$work/history" ] || python3 "$here/dashboard_history.py" --out "$work/history" --runs "$runs" --cases "$cases" --machines "$machines"
echo "history: $(cat "$work"/history/*.jsonl | wc -l) lines, $(du -sh "$work/history" | cut -f1)"
/usr/bin/time -v "$perfgate" dashboard --history "$work/history" --baselines "$work/no-baselines" \
  --thresholds "$here/../../thresholds" --out "$work/site" 2>"$work/time.err"
grep -E "Elapsed|User time|System time|Percent of CPU|Maximum resident" "$work/time.err"
echo "site: $(du -sh "$work/site" | cut -f1), $(find "$work/site" -type f | wc -l) files; index.js $(du -h "$work/site/data/index.js" | cut -f1), largest case file $(ls -S "$work/site/data/case" | head -1 | xargs -I{} du -h "$work/site/data/case/{}" | cut -f1)"
NODE_PATH="$web" node "$here/dashboard_timing.js" "$work/site" 5
uptime
