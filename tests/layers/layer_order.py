#!/usr/bin/env python3
"""Checks perfgate's include order: a lower layer never includes a higher one.

Usage: layer_order.py [--root DIR] harness|kernels

Prints one line per include that breaks the order, "path:line: why", and exits 1 when there is
one. The tables below are the one statement of the order (docs/architecture.md points here).
"""
import argparse
import os
import re
import sys

# harness/src/<folder>/: rank, lowest first. A file may include its own folder, the public headers
# (perfgate/...) and any folder of a strictly lower rank. Folders of equal rank are peers and may
# not include each other.
HARNESS_LAYERS = {
    "core": 0,
    "stats": 1,
    "measure": 2,
    "store": 2,
    "judge": 3,
    "report": 4,
    "notify": 4,
    "dashboard": 4,
    "gate": 5,
    "cli": 6,
}

# Backends plug in below measure/device.h: they see the core, that one header and their own folder.
# Nothing includes a backend: measure/open_device.cpp calls the open functions device.h declares.
BACKENDS = {"cpu", "vulkan"}
BACKEND_MAY_INCLUDE = {"measure/device.h"}

# Single includes allowed against the order, with the reason: (including file, included) -> why.
EXCEPTIONS = {}

# Kernels (kernels/<name>/) see the public headers, their own folder and what all kernels share.
KERNEL_SHARED = "kernels/common/"

SOURCE_SUFFIXES = (".h", ".cpp", ".comp", ".glsl")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def includes(path):
    """(line number, include text, quoted) for every #include of a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(2), m.group(1) == '"'


def sources(root, top):
    for folder, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(folder, name)


def check_harness_file(rel, layer, included):
    """Why `rel` (in `layer`) may not include `included`, or None."""
    if (rel, included) in EXCEPTIONS or included.startswith("perfgate/"):
        return None
    if layer == "perfgate":
        return "public headers include only perfgate/... headers"
    target = included.split("/", 1)[0] if "/" in included else None
    if target == layer:
        return None
    if layer in BACKENDS:
        if target == "core" or included in BACKEND_MAY_INCLUDE:
            return None
        return f"{layer} is a backend: it may include core/, perfgate/, measure/device.h and {layer}/ only"
    if target in BACKENDS:
        return f"{target} is a backend: nothing above it includes it (measure/device.h declares its open function)"
    if target not in HARNESS_LAYERS:
        return f"{included} is in no layer of the table"
    mine, theirs = HARNESS_LAYERS[layer], HARNESS_LAYERS[target]
    if theirs == mine:
        return f"{layer} and {target} are peers: neither includes the other"
    if theirs > mine:
        return f"{target} is above {layer}"
    return None


def check_harness(root):
    problems = []
    for path in sources(root, "harness"):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        parts = rel.split("/")
        if parts[1] == "include":
            layer = "perfgate"
        elif parts[1] == "src" and len(parts) > 3:
            layer = parts[2]
        else:
            continue
        if layer not in HARNESS_LAYERS and layer not in BACKENDS and layer != "perfgate":
            problems.append(f"{rel}:1: folder {layer}/ is in no layer of the table")
            continue
        for number, included, quoted in includes(path):
            if not quoted and not included.startswith("perfgate/"):
                continue  # a system or third-party header
            why = check_harness_file(rel, layer, included)
            if why:
                problems.append(f"{rel}:{number}: includes {included}: {why}")
    return problems


def check_kernels(root):
    problems = []
    for path in sources(root, "kernels"):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        parts = rel.split("/")
        if len(parts) < 3:
            continue
        own = "/".join(parts[:2]) + "/"
        for number, included, quoted in includes(path):
            if not quoted and not included.startswith("perfgate/"):
                continue
            if included.startswith("perfgate/") or included.startswith(KERNEL_SHARED):
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(rel), included)).replace(os.sep, "/")
            if resolved.startswith(own) or resolved.startswith(KERNEL_SHARED):
                continue
            problems.append(f"{rel}:{number}: includes {included}: a kernel includes perfgate/..., "
                            f"its own folder and {KERNEL_SHARED}... only")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    parser.add_argument("tree", choices=["harness", "kernels"])
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    problems = check_harness(root) if args.tree == "harness" else check_kernels(root)
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} include(s) break the order (tests/layers/layer_order.py)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
