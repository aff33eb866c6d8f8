#!/usr/bin/env python3
"""A/A spread of raw against calibrated time: runs `perfgate run SELECTION` N times, each a
separate process, and prints per case the per-run medians of latency_ns and relative_latency
and how far apart they land ((max - min) / median, and the largest deviation from the median of
the runs). Not a test: the study behind sampling.calibrate (docs/performance.md).

    tests/study/calibration_spread.py PERFGATE OUTDIR N [perfgate run options...]
    e.g. tests/study/calibration_spread.py build/perfgate /tmp/cal 10 'copy/cpu/*' --backend cpu
"""
import json
import pathlib
import statistics
import subprocess
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
perfgate, out, n = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3])
root = pathlib.Path(__file__).resolve().parents[2]
out.mkdir(parents=True, exist_ok=True)
per_case = {}
for i in range(n):
    result = out / f"run-{i}.json"
    subprocess.run([perfgate, "run", *sys.argv[4:], "--thresholds", str(root / "thresholds"),
                    "--baselines", str(out / "none"), "--cache-dir", str(out / "cache"),
                    "--json", str(result), "--color", "never"], stdout=subprocess.DEVNULL, check=False)
    for case in json.loads(result.read_text())["cases"]:
        for metric in ("latency_ns", "relative_latency"):
            m = case["metrics"].get(metric)
            if m:
                per_case.setdefault(case["id"], {}).setdefault(metric, []).append(m["summary"]["median"])
    print(f"run {i + 1}/{n} done", file=sys.stderr)
for case, metrics in per_case.items():
    for metric, medians in metrics.items():
        centre = statistics.median(medians)
        span = 100 * (max(medians) - min(medians)) / centre
        worst = max(100 * abs(m / centre - 1) for m in medians)
        print(f"{case:45s} {metric:17s} runs {len(medians):2d}  span {span:6.1f}%  worst {worst:6.1f}%  "
              + " ".join(f"{100 * (m / centre - 1):+.1f}" for m in medians))
