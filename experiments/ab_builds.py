#!/usr/bin/env python3
"""Two sluice builds side by side on one layout: each program from disk and
with --io memory, the builds' runs alternating round after round (the
machine is shared and noisy: only ratios taken in one run mean anything).
Prints a markdown table of medians and before / after.

    python3 experiments/ab_builds.py --after build/tools --before OLD/build/tools \\
        --rounds 5 rmat22.sluice [--programs bfs,wcc,pagerank10] [--source V]

BFS and WCC run 3 trials per process and count their median; pagerank10
is classic with 10 iterations and no tolerance, pagerank the defaults
(delta), bc one source (the default). The layout needs its
transpose and must be one both builds read. --after-flags and
--before-flags add flags to one side's runs: one build against itself
with two settings (--before build/tools --before-flags '--shares double'
--after-flags '--shares float' --programs pagerank10). --before-layout
runs the older side on another layout of the same graph: one build on two
layouts (--before build/tools --before-layout rmat22.sluice
rmat22-degree.sluice: the input's vertex order against --reorder degree;
sources are named by the input's ids in both)."""
import argparse
import re
import shlex
import statistics
import subprocess
import sys

PROGRAMS = {
    "bfs": ["sluice-bfs", "-n", "3"],
    "wcc": ["sluice-wcc", "-n", "3"],
    "pagerank10": ["sluice-pagerank", "--method", "classic", "--iterations", "10", "--tolerance", "0"],
    "pagerank": ["sluice-pagerank"],  # the defaults: delta, to its tolerance
    "bc": ["sluice-bc"],  # one source, as the program's default
    "spmv": ["sluice-spmv"],  # y = A x: over the transpose
}


def seconds(tools, flags, program, layout, io, threads, source):
    cmd = [f"{tools}/{PROGRAMS[program][0]}", layout, "-t", str(threads), "--io", io] + PROGRAMS[program][1:] + shlex.split(flags)
    if program == "bfs" and source is not None:
        cmd += ["--source", str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    found = re.search(r"median of \d+ trials ([0-9.]+) s", done.stdout) or re.search(r": ([0-9.]+) s, ", done.stdout)
    return float(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("layout")
    parser.add_argument("--after", required=True, help="build/tools of the newer sluice")
    parser.add_argument("--before", required=True, help="build/tools of the older sluice")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--programs", default=",".join(PROGRAMS))
    parser.add_argument("--source", type=int, help="BFS source (default: the program's)")
    parser.add_argument("--after-flags", default="", help="more flags for the newer side's runs")
    parser.add_argument("--before-flags", default="", help="more flags for the older side's runs")
    parser.add_argument("--before-layout", help="the older side's layout of the same graph (default: the layout)")
    args = parser.parse_args()
    print("| program | io | after s | before s | before / after |")
    print("| --- | --- | --- | --- | --- |")
    for program in args.programs.split(","):
        for io in ("auto", "memory"):
            after, before = [], []
            for r in range(args.rounds):
                order = [(args.after, args.after_flags, args.layout, after),
                         (args.before, args.before_flags, args.before_layout or args.layout, before)]
                if r % 2:
                    order.reverse()
                for tools, flags, layout, into in order:
                    into.append(seconds(tools, flags, program, layout, io, args.threads, args.source))
            a, b = statistics.median(after), statistics.median(before)
            print(f"| {program} | {'disk' if io == 'auto' else 'memory'} | {a:.3f} | {b:.3f} | {b / a:.2f} |", flush=True)


if __name__ == "__main__":
    main()
