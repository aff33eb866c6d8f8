#!/usr/bin/env python3
"""Makes a copy of the source tree whose kernel does PCT% more work under the same case ids:
the "real code slowdown" of a detection study (docs/performance.md). Not a test; never built
into perfgate itself.

    tests/study/slowdown.py KERNEL PCT DEST     # then build DEST like any checkout

copy: the CPU loop and the Vulkan shader both walk n + n*PCT/100 elements, the extra ones
wrapping round to the start (the same values written again, so the result stays exact), and
the Vulkan plan launches the extra tiles as extra workgroups: PCT% more bytes moved, spread
evenly over the device, nothing else changed.
"""
import pathlib
import shutil
import sys


def replace(path, old, new):
    text = path.read_text()
    if old not in text:
        sys.exit(f"slowdown.py: {path}: expected text not found (the kernel changed?):\n{old}")
    path.write_text(text.replace(old, new))


def slow_copy(root, pct):
    comp = root / "kernels/copy/copy.comp"
    replace(comp, "  const uint tiles = (n4 + tile - 1) / tile;",
            f"  const uint extra4 = n4 * {pct}u / 100u;  // study: {pct}% more work\n"
            "  const uint tiles = (n4 + extra4 + tile - 1) / tile;")
    replace(comp, "      const uint i = first + e * wg;\n      if (i < n4) v[e] = a[i];",
            "      const uint j = first + e * wg;\n      const uint i = j < n4 ? j : j - n4;\n"
            "      if (j < n4 + extra4) v[e] = a[i];")
    replace(comp, "      const uint i = first + e * wg;\n      if (i < n4) b[i] = v[e];",
            "      const uint j = first + e * wg;\n      const uint i = j < n4 ? j : j - n4;\n"
            "      if (j < n4 + extra4) b[i] = v[e];")
    cpp = root / "kernels/copy/copy.cpp"
    loop = "#pragma omp parallel for simd schedule(static)\n        for (std::int64_t i = 0; i < n; ++i) b[i] = a[i];"
    replace(cpp, loop,
            f"        const std::int64_t total = n + n * {pct} / 100;  // study: {pct}% more work\n"
            "#pragma omp parallel for simd schedule(static)\n"
            "        for (std::int64_t i = 0; i < total; ++i) b[i < n ? i : i - n] = a[i < n ? i : i - n];")
    replace(cpp, "        const std::uint32_t tiles = ((n + 3) / 4 + 4 * wg - 1) / (4 * wg);",
            f"        const std::uint32_t tiles = ((n + 3) / 4 * (100 + {pct}) / 100 + 4 * wg - 1) / (4 * wg);")


KERNELS = {"copy": slow_copy}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in KERNELS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(KERNELS)}}} PCT DEST")
    kernel, pct, dest = sys.argv[1], int(sys.argv[2]), pathlib.Path(sys.argv[3])
    src = pathlib.Path(__file__).resolve().parents[2]
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("build*", ".git", ".device", "e2e-tmp"))
    KERNELS[kernel](dest, pct)
    print(f"{dest}: {kernel} does {pct}% more work")
