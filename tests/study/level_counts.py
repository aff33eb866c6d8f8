#!/usr/bin/env python3
"""Counts case verdicts in results JSON files, with where each judgement's level came from
(level_source) and the range of latency's change. Not a test.

    tests/study/level_counts.py RESULTS.json...
    tests/study/level_counts.py --per-case RESULTS.json...

--per-case: the range of each case's judged time's change (relative_latency where calibrated,
else latency_ns) and of its allowance, in place of the level sources.
"""
import collections
import json
import sys

args = sys.argv[1:]
per_case = bool(args) and args[0] == "--per-case"
if per_case:
    args = args[1:]
if not args:
    sys.exit(__doc__)
verdicts, sources, changes = collections.Counter(), collections.Counter(), []
case_change, case_allowed = collections.defaultdict(list), collections.defaultdict(list)
for path in args:
    try:
        cases = json.load(open(path))["cases"]
    except (OSError, ValueError, KeyError):
        verdicts["(no results)"] += 1
        continue
    for case in cases:
        verdicts[case["verdict"]] += 1
        judged = {j.get("metric"): j for j in case.get("judgements", [])}
        if "latency_ns" in judged:
            sources[judged["latency_ns"].get("level_source") or "-"] += 1
            changes.append(judged["latency_ns"].get("change_pct", 0.0))
        time = judged.get("relative_latency") or judged.get("latency_ns")
        if time:
            case_change[case["id"]].append(time.get("change_pct", 0.0))
            case_allowed[case["id"]].append(time.get("threshold_pct", 0.0))
text = ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
if per_case:
    for case, change in case_change.items():
        allowed = case_allowed[case]
        text += f"; {case}: change {min(change):+.1f}..{max(change):+.1f}%, allowed {min(allowed):.1f}..{max(allowed):.1f}%"
else:
    text += "; level: " + ", ".join(f"{v} {k}" for k, v in sorted(sources.items()))
    if changes:
        text += f"; latency change {min(changes):+.1f}..{max(changes):+.1f}%"
print(text)
