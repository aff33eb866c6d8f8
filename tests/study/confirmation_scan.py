#!/usr/bin/env python3
"""Every first regression that a fresh process did not confirm, in the results JSON of detection
studies: the fresh process's change of the judged metric against the allowance the first
measurement had (judge/confirmation.h, bears_out). A study, not a test. Results whose path
contains "slow" count as slowed builds, the rest as A/A.

    tests/study/confirmation_scan.py DIR [DIR...]    # every *.json below each DIR
"""
import collections
import json
import pathlib
import re
import sys


def unconfirmed(paths):
    for path in paths:
        try:
            run = json.load(open(path))
        except (OSError, ValueError):
            continue
        if not isinstance(run, dict) or "cases" not in run:
            continue
        for case in run["cases"]:
            confirmations = case.get("confirmations") or []
            if case.get("first_verdict") != "regressed" or case["verdict"] == "regressed" or not confirmations:
                continue
            first = re.search(r"the first: .*?(\S+)% worse \(allowed ([0-9.]+)%", case.get("message", ""))
            if not first:
                continue
            yield ("slowed" if "slow" in str(path) else "A/A", str(path), case["id"], float(first.group(1)),
                   float(first.group(2)), confirmations[0]["change_pct"], confirmations[0]["verdict"])


def main():
    paths = [p for d in sys.argv[1:] for p in sorted(pathlib.Path(d).rglob("*.json"))]
    rows = list(unconfirmed(paths))
    counts = collections.Counter((kind, fresh > allowed) for kind, _, _, _, allowed, fresh, _ in rows)
    for kind in ("A/A", "slowed"):
        print(f"{kind}: {counts[(kind, False)] + counts[(kind, True)]} unconfirmed first regressions, "
              f"the fresh process past the first's allowance in {counts[(kind, True)]}")
    for kind, path, case_id, first, allowed, fresh, verdict in sorted(rows):
        print(f"  {kind:6s} {path}: {case_id} first {first:+.1f}% allowed {allowed:.1f}% fresh {fresh:+.1f}% {verdict}")


if __name__ == "__main__":
    main()
