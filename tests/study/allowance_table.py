#!/usr/bin/env python3
"""Per case, over the checks of a detection study (results JSON of tests/study/aa_suite.sh or
slowdown_checks.sh): how many regressed, the judged change of relative_latency, and the
allowance each check had with where it came from (floor, noise, load, fixed) and the spread of
its rounds (judge/load_allowance.h). A study, not a test.

    tests/study/allowance_table.py DIR [DIR...]
"""
import glob
import json
import os
import re
import sys


def rows(directory):
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        run = json.load(open(path))
        for case in run["cases"]:
            for j in case.get("judgements", []):
                if j["metric"] != "relative_latency":
                    continue
                spread = re.search(r"this check's spread ([0-9.e+]+)%", j.get("reason", ""))
                yield case["id"], case["verdict"], j, float(spread.group(1)) if spread else None


def main():
    for directory in sys.argv[1:]:
        print(f"== {directory}")
        by_case = {}
        for case_id, verdict, j, spread in rows(directory):
            by_case.setdefault(case_id, []).append((verdict, j, spread))
        for case_id, checks in sorted(by_case.items()):
            changes = [j["change_pct"] for _, j, _ in checks]
            allowed = [j["threshold_pct"] for _, j, _ in checks]
            spreads = [s for _, _, s in checks if s is not None]
            sources = {}
            for _, j, _ in checks:
                sources[j["threshold_source"]] = sources.get(j["threshold_source"], 0) + 1
            regressed = sum(1 for v, _, _ in checks if v == "regressed")
            print(f"{case_id}: {regressed}/{len(checks)} regressed; change {min(changes):+.1f}..{max(changes):+.1f}%;"
                  f" allowed {min(allowed):.1f}..{max(allowed):.1f}% ({', '.join(f'{n} {s}' for s, n in sorted(sources.items()))});"
                  + (f" spread {min(spreads):.2g}..{max(spreads):.2g}%" if spreads else ""))
            for verdict, j, spread in checks:
                print(f"    {verdict:12s} change {j['change_pct']:+7.1f}%  allowed {j['threshold_pct']:5.1f}% {j['threshold_source']:8s}"
                      + (f" spread {spread:.2g}%" if spread is not None else ""))


if __name__ == "__main__":
    main()
