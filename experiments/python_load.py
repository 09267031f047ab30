#!/usr/bin/env python3
"""Loading a graph into Python with the sluice package: open + to_scipy(),
and one pass over every block (the block API, decoded in parallel), each
timed over alternating repeats; medians. Usage:

    PYTHONPATH=build/python python3 experiments/python_load.py GRAPH [REPEATS]
"""
import statistics
import sys
import time

import sluice


def to_scipy(path):
    with sluice.open(path) as g:
        return g.to_scipy().nnz


def blocks(path):
    with sluice.open(path) as g:
        return sum(b.targets.size for b in g.blocks())


def main():
    path = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    times = {"open + to_scipy()": [], "open + every block": []}
    for _ in range(repeats):
        for (name, run) in zip(times, (to_scipy, blocks)):
            start = time.perf_counter()
            edges = run(path)
            times[name].append(time.perf_counter() - start)
    for name, seconds in times.items():
        print(f"{name:22s} {statistics.median(seconds):7.3f} s median of {repeats} ({edges / 1e6:.1f} M edges)")


if __name__ == "__main__":
    main()
