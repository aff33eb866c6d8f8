#!/usr/bin/env python3
"""Histories of one case built from runs measured on several GPUs, then judged by `history --gate`.

Replays saved results: whole-suite history lines (report --append-history) of earlier GPUs, then
checks (`check --json`) appended in the order given, each given a later start time and commit so
the history keeps that order. Every run's kernel source hash is made one (a slowdown from a change
that is not the kernel's source: the hardest case for a step at a device move); --real-source
keeps the checks' own hashes.

  history_across_devices.py PERFGATE OUTDIR CASE --lines HISTORY.jsonl... --checks CHECK.json...

Prints the gate's last line. docs/performance.md, "Steps across GPUs".
"""
import argparse
import datetime
import json
import os
import subprocess

ONE_SOURCE = "sha256:study-one-source"

parser = argparse.ArgumentParser()
parser.add_argument("perfgate")
parser.add_argument("outdir")
parser.add_argument("case")
parser.add_argument("--lines", nargs="*", default=[], help="history files whose lines of CASE come first")
parser.add_argument("--checks", nargs="*", default=[], help="check results appended after them, in order")
parser.add_argument("--real-source", action="store_true", help="keep the checks' own source hashes")
args = parser.parse_args()

os.makedirs(args.outdir)
lines = []
for path in args.lines:
    for text in open(path):
        line = json.loads(text)
        if line["case"] == args.case:
            line["source_hash"] = ONE_SOURCE
            lines.append(line)
history = os.path.join(args.outdir, "history")
os.makedirs(history)
if lines:
    name = os.path.basename(args.lines[0])
    with open(os.path.join(history, name), "w") as out:
        for line in lines:
            out.write(json.dumps(line) + "\n")
for i, path in enumerate(args.checks):
    run = json.load(open(path))
    run["cases"] = [c for c in run["cases"] if c["id"] == args.case]
    if not args.real_source:
        for case in run["cases"]:
            case["source_hash"] = ONE_SOURCE
    # After every line of the history, one second apart, and never in the future (refused).
    at = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=len(args.checks) - i)
    run["started_at"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    run["run_id"] = f"study-{i}"
    run["commit"] = f"{i:040x}"
    appended = os.path.join(args.outdir, f"check-{i}.json")
    json.dump(run, open(appended, "w"))
    subprocess.run([args.perfgate, "report", appended, "--history", history, "--append-history"],
                   check=True, capture_output=True)
gate = subprocess.run([args.perfgate, "history", "--history", history, "--gate"], capture_output=True, text=True)
print((gate.stdout + gate.stderr).strip().splitlines()[-1])
