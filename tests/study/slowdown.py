#!/usr/bin/env python3
"""Makes a copy of the source tree whose kernel does PCT% more work under the same case ids:
the "real code slowdown" of a detection study (docs/performance.md). Not a test; never built
into perfgate itself.

    tests/study/slowdown.py [--into-existing] [--plus N] KERNEL AXIS PCT DEST [FILE...]   # then build DEST
    e.g. tests/study/slowdown.py copy n 5 /work/study-copy5      (PCT: one decimal at most, e.g. 0.5)
         tests/study/slowdown.py f16_matvec m 5 /work/study-f16 kernels/common/row_plan.h

--plus N adds N to the axis as well (AXIS * (1 + PCT/100) + N), so one build can slow a small
point by more than a large one: e.g. copy n 0.8 --plus 75776 moves 1% more bytes at n=2^25 and
8% more at n=2^20 (the history study's +1% DRAM and ~+4% in-L2 steps).

--into-existing patches a DEST made by an earlier call instead of copying the tree afresh, so
one build can slow several kernels (each case is checked on its own, so they do not interact).

Every use of the size axis AXIS in kernels/KERNEL/KERNEL.cpp (buffers, reference, CPU loop,
Vulkan plan; FILEs too, where the plan is built by a shared helper) sees AXIS + PCT%, except the
cost model: the kernel moves PCT% more bytes, through
memory no other part of the case touches, while its case id and cost stay those of AXIS.
(A first version re-copied the first PCT% of copy's buffers instead; on the H100 that data was
still partly in L2 and 5% more work cost only 1.1% more time at n=2^25, so the study moves
fresh bytes.)
"""
import pathlib
import shutil
import sys


def slow(cpp, axis, pct, plus=0):
    lines = cpp.read_text().splitlines(keepends=True)
    use = f'p["{axis}"]'
    permille = round(10 * pct)  # PCT may have one decimal: 0.5 -> 1005 / 1000
    scaled = f'(p["{axis}"] * ({1000 + permille}) / 1000 + {plus})' if plus else f'(p["{axis}"] * ({1000 + permille}) / 1000)'
    changed = 0
    for i, line in enumerate(lines):
        in_cost = ".cost(" in line or (i > 0 and ".cost(" in lines[i - 1])
        if use in line and not in_cost:
            lines[i] = line.replace(use, scaled)
            changed += 1
    cpp.write_text("".join(lines))
    return changed


if __name__ == "__main__":
    args = sys.argv[1:]
    into_existing = bool(args) and args[0] == "--into-existing"
    if into_existing:
        args = args[1:]
    plus = 0
    if len(args) >= 2 and args[0] == "--plus":
        plus, args = int(args[1]), args[2:]
    if len(args) < 4:
        sys.exit(f"usage: {sys.argv[0]} [--into-existing] [--plus N] KERNEL AXIS PCT DEST [FILE...]")
    kernel, axis, pct, dest = args[0], args[1], float(args[2]), pathlib.Path(args[3])
    src = pathlib.Path(__file__).resolve().parents[2]
    if into_existing:
        if not (dest / "kernels").is_dir():
            sys.exit(f"slowdown.py: --into-existing: {dest} holds no copy made by an earlier call")
    else:
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns("build*", ".git", ".device", ".study", ".ceilings", "e2e-tmp"))
    files = [dest / "kernels" / kernel / f"{kernel}.cpp"] + [dest / f for f in args[4:]]
    n = sum(slow(f, axis, pct, plus) for f in files)
    if n == 0:
        sys.exit(f"slowdown.py: no use of the {axis} axis outside the cost model in {files}")
    print(f"{dest}: {kernel} moves {pct}% more (+{plus}) through its {axis} axis ({n} uses changed)")
