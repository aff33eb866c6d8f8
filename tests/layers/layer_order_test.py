#!/usr/bin/env python3
"""The layer-order checker on a fixture tree: it reports exactly the bad includes, by file and line."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")

EXPECTED = {
    "harness": [
        "harness/src/core/clock.h:6: includes measure/sampler.h: measure is above core",
        "harness/src/measure/sampler.cpp:6: includes store/baseline.h: measure and store are peers: "
        "neither includes the other",
    ],
    "kernels": [
        "kernels/alpha/alpha.cpp:5: includes ../beta/beta.h: a kernel includes perfgate/..., its own "
        "folder and kernels/common/... only",
    ],
}


def main():
    failed = False
    for tree, expected in EXPECTED.items():
        run = subprocess.run([sys.executable, os.path.join(HERE, "layer_order.py"), "--root", FIXTURES, tree],
                             capture_output=True, text=True)
        got = run.stdout.splitlines()
        if got != expected or run.returncode != 1:
            failed = True
            print(f"{tree}: exit {run.returncode}, expected 1; reported:")
            print("\n".join("  " + line for line in got))
            print("expected:")
            print("\n".join("  " + line for line in expected))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
