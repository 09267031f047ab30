#!/usr/bin/env python3
"""Compressed edge pages (the converter's default) against plain ones
(convert --plain), side by side: for each graph, the plain layout and its
compressed copy run the same program in alternating order, round after
round; kernel seconds (medians) and MB read, from disk and with --io memory.

  experiments/bench_compressed.py --tools build-release/tools --rounds 3 \\
      NAME=PLAIN.sluice,COMPRESSED.sluice [...]

Each layout needs its transpose (or is symmetric). PageRank runs 10
classic iterations. --programs picks some of bfs, wcc, pagerank10, spmv,
bc, radii, jtcc, sssp, kcore, mis, tc (default: bfs, wcc, pagerank10,
spmv; sssp wants a weighted graph, kcore, mis and tc a symmetric one);
--flags adds flags to every run (e.g. --programs pagerank10 --flags
'--shares float')."""
import argparse
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

PROGRAMS = {
    "bfs": ["sluice-bfs"],
    "wcc": ["sluice-wcc"],
    "pagerank10": ["sluice-pagerank", "--method", "classic", "--iterations", "10", "--tolerance", "0"],
    "spmv": ["sluice-spmv"],
    "sssp": ["sluice-sssp"],  # weighted layouts: the weights beside the gaps
    "bc": ["sluice-bc"],
    "radii": ["sluice-radii"],
    "jtcc": ["sluice-jtcc"],  # one pass over the edges through the block API (no --io): "MB of ids"
    "kcore": ["sluice-kcore"],  # symmetric layouts
    "mis": ["sluice-mis"],
    "tc": ["sluice-tc"],
}


def run(cmd):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(map(str, cmd))}\n{done.stderr}")
    seconds = re.search(r": ([0-9.]+) s, ", done.stdout)
    read = re.search(r"([0-9.]+) MB (read|of ids)", done.stdout)
    if not seconds or not read:
        sys.exit(f"no kernel seconds and MB read in the summary of {' '.join(map(str, cmd))}:\n{done.stdout}")
    return float(seconds.group(1)), float(read.group(1)), done.stdout


def page_bytes(tools, layout):
    info = subprocess.run([tools / "sluice", "info", layout], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"([0-9.]+) bytes per edge", info).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", required=True, type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", default="2")
    parser.add_argument("--programs", default="bfs,wcc,pagerank10,spmv")
    parser.add_argument("--flags", default="", help="more flags for every run")
    parser.add_argument("graphs", nargs="+", help="NAME=PLAIN.sluice,COMPRESSED.sluice")
    args = parser.parse_args()
    unknown = set(args.programs.split(",")) - set(PROGRAMS)
    if unknown:
        sys.exit(f"unknown programs {sorted(unknown)}: pick from {', '.join(PROGRAMS)}")
    print(f"Kernel seconds, medians of {args.rounds} alternating rounds, {args.threads} threads; "
          "ratio = plain / compressed (above 1: compressed faster).\n")
    print("| graph | bytes/edge plain | compressed | algorithm | io | plain s | compressed s | ratio | MB read plain | compressed |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for spec in args.graphs:
        name, layouts = spec.split("=", 1)
        plain, compressed = layouts.split(",")
        sizes = [page_bytes(args.tools, x) for x in (plain, compressed)]
        for algorithm in args.programs.split(","):
            program = PROGRAMS[algorithm]
            takes_io = algorithm != "jtcc"  # JT-CC reads through the block API
            for io in ("auto", "memory") if takes_io else ("auto",):
                seconds = {plain: [], compressed: []}
                mb = {}
                outputs = {}
                for r in range(args.rounds):
                    order = [plain, compressed] if r % 2 == 0 else [compressed, plain]
                    for layout in order:
                        where = ["--io", io] if takes_io else []
                        cmd = [args.tools / program[0], layout, "-t", args.threads] + where + program[1:] + shlex.split(args.flags)
                        s, m, out = run(cmd)
                        seconds[layout].append(s)
                        mb[layout] = m
                        outputs[layout] = out.splitlines()[-1].split(": ", 1)[1].split(", ", 3)[-1]
                # The same answer from both (the summary after the timings).
                if outputs[plain] != outputs[compressed] and algorithm != "pagerank10":
                    sys.exit(f"{name} {algorithm}: plain says '{outputs[plain]}', compressed '{outputs[compressed]}'")
                p, c = statistics.median(seconds[plain]), statistics.median(seconds[compressed])
                print(f"| {name} | {sizes[0]:.2f} | {sizes[1]:.2f} | {algorithm} | {('disk' if io == 'auto' else 'memory') if takes_io else 'block API'} | "
                      f"{p:.3f} | {c:.3f} | {p / c if c else float('nan'):.2f} | {mb[plain]:.0f} | {mb[compressed]:.0f} |", flush=True)


if __name__ == "__main__":
    main()
