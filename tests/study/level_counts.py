#!/usr/bin/env python3
"""Counts case verdicts in results JSON files, with where each judgement's level came from
(level_source) and the range of latency's change. Not a test.

    tests/study/level_counts.py RESULTS.json...
"""
import collections
import json
import sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
verdicts, sources, changes = collections.Counter(), collections.Counter(), []
for path in sys.argv[1:]:
    try:
        cases = json.load(open(path))["cases"]
    except (OSError, ValueError, KeyError):
        verdicts["(no results)"] += 1
        continue
    for case in cases:
        verdicts[case["verdict"]] += 1
        for j in case.get("judgements", []):
            if j.get("metric") == "latency_ns":
                sources[j.get("level_source") or "-"] += 1
                changes.append(j.get("change_pct", 0.0))
text = ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
text += "; level: " + ", ".join(f"{v} {k}" for k, v in sorted(sources.items()))
if changes:
    text += f"; latency change {min(changes):+.1f}..{max(changes):+.1f}%"
print(text)
