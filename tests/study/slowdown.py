#!/usr/bin/env python3
"""Makes a copy of the source tree whose kernel does PCT% more work under the same case ids:
the "real code slowdown" of a detection study (docs/performance.md). Not a test; never built
into perfgate itself.

    tests/study/slowdown.py KERNEL PCT DEST     # then build DEST like any checkout

copy: the buffers hold n + PCT% floats and the CPU loop and the Vulkan plan copy all of them:
PCT% more bytes moved, through memory no other part of the case touches, while the case id and
its cost model (the bytes of n) stay the same. (A first version re-copied the first PCT% of the
buffers instead; on the H100 that data was still partly in L2 and 5% more work cost only 1.1%
more time at n=2^25, so the study moves fresh bytes.)
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
    cpp = root / "kernels/copy/copy.cpp"
    more = f" * (100 + {pct}) / 100  /* study: {pct}% more bytes */"
    # Buffers, the CPU loop and the Vulkan plan see n + PCT% elements; the cost model (bytes
    # moved for the case's n) and the case id stay those of n.
    replace(cpp, "        const auto n = static_cast<std::size_t>(p[\"n\"]);\n        return std::vector<BufferSpec>",
            f"        const auto n = static_cast<std::size_t>(p[\"n\"]){more};\n        return std::vector<BufferSpec>")
    replace(cpp, "        const auto n = static_cast<std::int64_t>(p[\"n\"]);",
            f"        const auto n = static_cast<std::int64_t>(p[\"n\"]){more};")
    replace(cpp, "        const auto n = static_cast<std::uint32_t>(p[\"n\"]);",
            f"        const auto n = static_cast<std::uint32_t>(p[\"n\"]){more};")


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
