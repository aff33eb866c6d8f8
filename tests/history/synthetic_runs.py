#!/usr/bin/env python3
"""Writes synthetic perfgate results JSON files, one per run, for history tests: every case's
samples are a level times seeded log-normal noise; --step CASE:RUN:PCT makes CASE PCT% slower
from run RUN on (repeatable, steps add up); --odd CASE:RUN:FACTOR makes that one run FACTOR times
slower (a machine hiccup); --case KERNEL=ID and --level KERNEL=NS give a kernel's case another id and
level, --branch the runs' branch (the dashboard's test plants hostile ones); --kernels copy,triad writes only
those kernels, --host-id names the host, --source KERNEL=HASH gives a kernel's source hash and --started-at TIME
starts run i at TIME + i seconds, never after now (runs of one host after its baseline, as CI appends them).
No measurement: the files only feed `perfgate report --append-history`.

  synthetic_runs.py --out DIR --runs 40 --first 0 --step copy:30:10
"""
import argparse, datetime, json, math, os, random, statistics

CASES = {  # kernel -> (case id, latency ns)
    "copy": ("copy/cpu/n=1048576", 800000.0),
    "triad": ("triad/cpu/n=1048576", 1200000.0),
    "rmsnorm": ("rmsnorm/cpu/n=4096,rows=64", 90000.0),
}


def summary(samples):
    s = sorted(samples)
    med = statistics.median(s)
    mean = statistics.fmean(s)
    sd = statistics.stdev(s) if len(s) > 1 else 0.0
    return {"count": len(s), "min": s[0], "max": s[-1], "mean": mean, "median": med, "stddev": sd,
            "cv": sd / mean, "mad": statistics.median(abs(x - med) for x in s), "p5": s[0], "p95": s[-1]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="index of the first run written")
    ap.add_argument("--step", action="append", default=[], help="KERNEL:RUN:PCT")
    ap.add_argument("--odd", action="append", default=[], help="KERNEL:RUN:FACTOR: that one run x FACTOR")
    ap.add_argument("--noise-pct", type=float, default=0.5, help="run-to-run sigma, %%")
    ap.add_argument("--machine", default="cpu-test-machine-2t")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--branch", default="main")
    ap.add_argument("--case", action="append", default=[], help="KERNEL=CASE ID")
    ap.add_argument("--level", action="append", default=[], help="KERNEL=LATENCY NS")
    ap.add_argument("--kernels", help="KERNEL,KERNEL: only these (default: all)")
    ap.add_argument("--host-id", default="", help="the fingerprint's host id (default: none named)")
    ap.add_argument("--source", action="append", default=[], help="KERNEL=SOURCE HASH")
    ap.add_argument("--started-at", help="ISO 8601 UTC: run i starts this + i seconds, never after now")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    steps = [(k, int(r), float(p)) for k, r, p in (s.split(":") for s in args.step)]
    ids = dict(c.split("=", 1) for c in args.case)
    levels = {k: float(v) for k, v in (c.split("=", 1) for c in args.level)}
    odds = [(k, int(r), float(f)) for k, r, f in (s.split(":") for s in args.odd)]
    kernels = args.kernels.split(",") if args.kernels else list(CASES)
    sources = dict(c.split("=", 1) for c in args.source)
    utc = datetime.timezone.utc
    first_start = (datetime.datetime.strptime(args.started_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=utc)
                   if args.started_at else None)
    for run in range(args.first, args.first + args.runs):
        rng = random.Random(args.seed * 100003 + run)
        cases = []
        for kernel, (case_id, level) in CASES.items():
            if kernel not in kernels:
                continue
            case_id, level = ids.get(kernel, case_id), levels.get(kernel, level)
            for k, r, p in steps:
                if k == kernel and run >= r:
                    level *= 1 + p / 100
            run_level = level * math.exp(rng.gauss(0, args.noise_pct / 100))
            for k, r, f in odds:
                if k == kernel and run == r:
                    run_level *= f
            samples = [run_level * math.exp(rng.gauss(0, 0.002)) for _ in range(10)]
            cases.append({"id": case_id, "kernel": kernel, "backend": "cpu", "params": [],
                          "cost": {"bytes_read": 8.0e6, "bytes_written": 4.0e6, "flops": 0.0},
                          "source_hash": sources.get(kernel, "sha256:" + kernel), "verdict": "pass", "message": "", "check": "",
                          "metrics": {"latency_ns": {"samples": samples, "summary": summary(samples)}},
                          "judgements": [], "stages": [], "bound": "memory", "arithmetic_intensity": 0.0,
                          "fits_in_cache": False, "measurements": 1, "peak_bandwidth_gbps": 0.0})
        started = f"2026-11-{1 + run // 24:02d}T{run % 24:02d}:00:00Z"
        if first_start:
            at = min(first_start + datetime.timedelta(seconds=run - args.first), datetime.datetime.now(utc))
            started = at.strftime("%Y-%m-%dT%H:%M:%SZ")
        doc = {"schema": 1, "perfgate_version": "0.0.0-test", "run_id": f"20261125T{run:06d}Z-synth",
               "started_at": started,
               "commit": f"{run:04d}" + "c" * 36, "branch": args.branch,
               "fingerprint": {"machine_id": args.machine, "backend": "cpu", "device_name": "Test CPU",
                               "vendor_id": 0, "device_id": 0, "driver_version": "", "api_version": "",
                               "device_uuid": "", "cpu_model": "Test CPU", "cpu_threads": 2,
                               "compiler": "GNU 12.2.0", "build_type": "Release"},
               "cases": cases}
        if args.host_id:
            doc["fingerprint"]["host_id"] = args.host_id
        with open(os.path.join(args.out, f"run-{run:03d}.json"), "w") as f:
            json.dump(doc, f)


if __name__ == "__main__":
    main()
