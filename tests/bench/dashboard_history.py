#!/usr/bin/env python3
"""Writes a large history folder for the dashboard's scale benchmark (tests/bench/dashboard_scale.sh):
RUNS runs x CASES cases x MACHINES machines, one history line per case per run, in the store's
format (store/history.h), which `perfgate dashboard` reads and checks line by line. Each case's
level is seeded log-normal noise (0.5% between runs); every 25th case steps +8% at a run of its
own on every machine, so the front page has items to group. Machine 0 is a pool of two GPUs.

  dashboard_history.py --out DIR [--runs 1000] [--cases 200] [--machines 4]
"""
import argparse, json, math, os, random

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--runs", type=int, default=1000)
ap.add_argument("--cases", type=int, default=200)
ap.add_argument("--machines", type=int, default=4)
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
kernels = ["copy", "triad", "reduce", "fill", "fma", "matmul", "q4_0_matvec", "softmax", "rmsnorm", "layernorm"]
cases = [f"{kernels[i % len(kernels)]}/vulkan/n={1 << (10 + i // len(kernels))},v={i}" for i in range(args.cases)]
for m in range(args.machines):
    machine = f"gpu-bench-{m}"
    rng = random.Random(m)
    with open(os.path.join(args.out, machine + ".jsonl"), "w") as out:
        for run in range(args.runs):
            run_id = f"2026{1 + run // 28800:02d}01T{run:06d}Z-bench"
            started = f"2026-{1 + run // 720:02d}-{1 + run // 24 % 30:02d}T{run % 24:02d}:{m:02d}:00Z"
            commit = f"{run:08x}" + "b" * 32
            device = f"GPU-{m}-{run % 2}" if m == 0 else f"GPU-{m}-0"
            for c, case in enumerate(cases):
                level = 1e4 * (1 + c % 17)
                if c % 25 == 0 and run >= 300 + c:
                    level *= 1.08
                median = level * math.exp(rng.gauss(0, 0.005))
                out.write(json.dumps({
                    "branch": "main", "case": case, "commit": commit, "device_uuid": device, "driver": "550.1",
                    "medians": {"latency_ns": median}, "perfgate_version": "0.0.0-bench", "run_id": run_id,
                    "source_hash": "sha256:" + case.split("/")[0], "spreads": {"latency_ns": median * 0.002},
                    "started_at": started, "verdict": "pass"}, separators=(",", ":")) + "\n")
