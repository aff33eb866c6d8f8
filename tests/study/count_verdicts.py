#!/usr/bin/env python3
"""Counts the verdicts of a study's checks (the results JSON each check wrote) per case: how many
regressed, and the range of the judged metric's change (relative_latency where calibrated, else
latency_ns), then every verdict's count ("too busy": inconclusive, too busy to judge). Not a test.

    tests/study/count_verdicts.py FOLDER...   # every *.json under each FOLDER, e.g. OUT/check-*.json
"""
import collections
import json
import pathlib
import sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
for folder in sys.argv[1:]:
    rows = collections.defaultdict(list)
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        try:
            cases = json.loads(path.read_text())["cases"]
        except (ValueError, KeyError):
            continue
        for case in cases:
            judged = {j["metric"]: j for j in case.get("judgements", [])}
            main = judged.get("relative_latency") or judged.get("latency_ns") or {}
            rows[case["id"]].append((case["verdict"], main.get("metric", "-"), main.get("change_pct", 0.0),
                                     main.get("threshold_pct", 0.0), case.get("first_verdict"),
                                     any(j.get("too_busy") for j in case.get("judgements", []))))
    print(folder)
    for case, checks in rows.items():
        changes = sorted(c[2] for c in checks)
        regressed = sum(c[0] == "regressed" for c in checks)
        first = sum(c[0] == "regressed" or c[4] == "regressed" for c in checks)
        print(f"  {case:40s} regressed {regressed:2d}/{len(checks):2d} (first measurement {first:2d})  "
              f"{checks[0][1]} change {changes[0]:+.1f}..{changes[-1]:+.1f}% median {changes[len(changes) // 2]:+.1f}%  "
              f"allowed {checks[0][3]:.0f}%")
        verdicts = collections.Counter("too busy" if c[0] == "inconclusive" and c[5] else c[0] for c in checks)
        print("      " + ", ".join(f"{v} {k}" for v, k in sorted(verdicts.items())))
