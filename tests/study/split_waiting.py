#!/usr/bin/env python3
"""Which side of a calibrated round waited for a core, and whether that explains the round's
ratio (a study, not a test). Reads results JSON written by a binary built with
tests/study/split_waiting.patch, which records, per round, the time this process's threads waited
for a core during the case's batch (case_cpu_wait_ns) and during the reference's
(reference_cpu_wait_ns), per dispatch, summed over threads.

For each case of each file it prints the relative latency's change against QUIET (the case's
median relative latency on a quiet machine, given as ID=VALUE), the largest of the three robust
spreads the load rule uses (stats/check_spread.h), the whole check's waiting share W and the
stretch (W / (1 - W)) the waiting rule allows for it, the case's and the reference's waiting as
shares of their own batches (totals over the rounds), and the change those two shares predict if
the waiting slowed each side by the time it waited: (1 - reference's) / (1 - case's) - 1.

    tests/study/split_waiting.py 'copy/cpu/n=1048576=0.995' ... -- RESULTS.json...
"""
import json
import statistics
import sys


def robust_spread_pct(xs):
    m = statistics.median(xs)
    return 100 * 1.4826 * statistics.median([abs(x - m) for x in xs]) / m


if "--" not in sys.argv:
    sys.exit(__doc__)
split = sys.argv.index("--")
quiet = dict(arg.rsplit("=", 1) for arg in sys.argv[1:split])
for path in sys.argv[split + 1:]:
    for case in json.load(open(path))["cases"]:
        metrics = case["metrics"]
        if case["id"] not in quiet or "case_cpu_wait_ns" not in metrics:
            continue
        lat, ref, rel, case_wait, ref_wait = (metrics[name]["samples"] for name in (
            "latency_ns", "reference_latency_ns", "relative_latency", "case_cpu_wait_ns", "reference_cpu_wait_ns"))
        change = 100 * (statistics.median(rel) / float(quiet[case["id"]]) - 1)
        spread = max(robust_spread_pct(lat), robust_spread_pct(ref), robust_spread_pct(rel))
        w = case.get("cpu_wait_share", 0)
        case_share, ref_share = sum(case_wait) / sum(lat), sum(ref_wait) / sum(ref)
        predicted = 100 * ((1 - ref_share) / (1 - case_share) - 1) if case_share < 1 else float("inf")
        stretch = 100 * w / (1 - w) if w < 1 else float("inf")
        print(f"{path}  {case['id']}  change {change:+.1f}%  spread {spread:.1f}%  W {w:.2f} (stretch {stretch:.0f}%)"
              f"  case waited {case_share:.2f}, reference {ref_share:.2f}: predicts {predicted:+.1f}%")
