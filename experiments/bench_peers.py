"""sluice out of core, sluice in memory (--io memory) and NetworKit (in
memory, kernel time only) on the same generated graphs, in alternating
rounds on one machine; plus, for full scans, the PageRank iterations'
bandwidth (--stats) against a sequential read of the same drive files
measured in the same round. Run through experiments/bench_peers.

Prints markdown tables: medians over the rounds, the ratios, bytes read,
and a check that all systems agree (vertices reached, component count).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def run(cmd, env=None):
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(map(str, cmd))}\n{done.stderr}")
    return done.stdout


def make_graph(tools, work, kind, scale, threads, suffix=""):
    """Generates KIND at SCALE onto one drive directory, with the transpose
    (the same seed gives the same graph from any sluice version; SUFFIX
    keeps the layouts of two versions apart)."""
    name = f"{kind}{scale}{suffix}"
    layout = work / f"{name}.sluice"
    if not layout.exists():
        drive = work / f"{name}-drive0"
        drive.mkdir(parents=True, exist_ok=True)
        run([tools / "sluice", "generate", kind, "-s", str(scale), "-o", layout, "--drives", drive,
             "--transpose", "-t", str(threads)])
    return layout


def read_layout(layout):
    """The out-edges of a sluice layout as CSR arrays (offsets, targets), read
    with numpy from the manifest, the index file and the drive files."""
    manifest = {}
    for line in layout.read_text().splitlines():
        if " " in line:
            key, value = line.split(" ", 1)
            manifest.setdefault(key, value)
    n, m = int(manifest["vertices"]), int(manifest["edges"])
    if int(manifest.get("id_bytes", "4")) != 4 or manifest.get("weighted", "0") not in ("0", "false", "no"):
        sys.exit("bench_peers reads unweighted layouts with 32-bit ids")
    page = int(manifest.get("page_bytes", "4096"))
    def drive_files(side):
        found = {int(k.rsplit(".", 1)[1]): v for k, v in manifest.items() if k.startswith(side + ".drive.")}
        return [layout.parent / found[d] for d in sorted(found)]

    drives = drive_files("out")
    index = np.fromfile(layout.parent / manifest["out.index"], dtype=np.uint8)
    groups = (n + 15) // 16 + 1
    start = (64 + groups * 8 + 63) // 64 * 64
    degrees = index[start:start + 4 * n].view(np.uint32)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degrees, out=offsets[1:])
    # Version 2 drive files start with a header page.
    header = page if int(manifest.get("sluice-graph", "1")) >= 2 else 0
    pages = [np.fromfile(d, dtype=np.uint32, offset=header).reshape(-1, page // 4) for d in drives]
    total = sum(len(p) for p in pages)
    records = np.empty((total, page // 4), dtype=np.uint32)
    for d, p in enumerate(pages):
        records[d::len(drives)] = p
    return offsets, records.reshape(-1)[:m], n, m, drive_files("in")


def summary_seconds(out):
    """Seconds and MB read from an algorithm program's summary line."""
    found = re.search(r": ([0-9.]+) s, ([0-9]+) iterations, ([0-9.]+) MB read", out)
    return float(found.group(1)), float(found.group(3))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", required=True, type=Path, help="build/tools of the sluice to measure")
    parser.add_argument("--before", type=Path, help="build/tools of an earlier sluice, run in the same rounds")
    parser.add_argument("--work", type=Path, default=Path("build/peers"), help="where graphs are generated")
    parser.add_argument("--kinds", default="rmat,uniform")
    parser.add_argument("--scale", type=int, default=22)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=10, help="PageRank iterations")
    args = parser.parse_args()

    import networkit as nk

    nk.setNumberOfThreads(args.threads)
    args.work.mkdir(parents=True, exist_ok=True)
    t = str(args.threads)
    sluices = [("sluice", args.tools)] + ([("before", args.before)] if args.before else [])
    for kind in args.kinds.split(","):
        layout = make_graph(args.tools, args.work, kind, args.scale, args.threads)
        layouts = {"sluice": layout}
        if args.before:  # an earlier sluice may not read this version's layout
            layouts["before"] = make_graph(args.before, args.work, kind, args.scale, args.threads, "-before")
        offsets, targets, n, m, in_drives = read_layout(layout)
        if m and int(targets.max()) >= n:
            sys.exit(f"{layout}: a target beyond the vertex count; the layout was not read right")
        in_drives = [str(d) for d in in_drives]
        rows = np.repeat(np.arange(n, dtype=np.uint32), np.diff(offsets).astype(np.int64))
        graph = nk.GraphFromCoo((np.ones(m, dtype=np.float64), (rows, targets)), n, directed=True)
        del rows
        source = int(np.argmax(np.diff(offsets)))  # sluice's default: the highest out-degree, smallest id
        print(f"\n## {kind} scale {args.scale}: {n} vertices, {m} edges, {args.rounds} rounds, {args.threads} threads,"
              f" BFS source {source}\n", flush=True)

        def networkit(algorithm):
            start = time.perf_counter()
            if algorithm == "bfs":
                bfs = nk.distance.BFS(graph, source, storePaths=False)
                bfs.run()
                seconds = time.perf_counter() - start
                return seconds, int(np.count_nonzero(np.array(bfs.getDistances()) < 1e300))
            if algorithm == "wcc":
                wcc = nk.components.WeaklyConnectedComponents(graph)
                wcc.run()
                return time.perf_counter() - start, wcc.numberOfComponents()
            pr = nk.centrality.PageRank(graph, 0.85, 1e-300)
            pr.maxIterations = args.iterations
            pr.run()
            return time.perf_counter() - start, pr.numberOfIterations()

        flags = {
            "bfs": [],
            "wcc": [],
            "pagerank": ["--method", "classic", "--iterations", str(args.iterations), "--tolerance", "0"],
        }
        times = {}  # (system, algorithm) -> [seconds]
        read_mb = {}
        digests = {}
        scan_ratio, scan_rows = [], []
        for r in range(args.rounds):
            for algorithm in ("bfs", "wcc", "pagerank"):
                order = [(name, tools, io) for name, tools in sluices for io in ("disk", "memory")] + [("networkit", None, None)]
                if r % 2:
                    order.reverse()
                for name, tools, io in order:
                    if name == "networkit":
                        seconds, digest = networkit(algorithm)
                        times.setdefault(("networkit", algorithm), []).append(seconds)
                        digests[("networkit", algorithm)] = digest
                        continue
                    cmd = [tools / f"sluice-{algorithm}", layouts[name], "-t", t] + flags[algorithm]
                    if io == "memory":
                        cmd += ["--io", "memory"]
                    stats = args.work / "stats.jsonl"
                    if algorithm == "pagerank" and io == "disk" and name == "sluice":
                        cmd += ["--stats", stats]
                    out = run(cmd)
                    seconds, mb = summary_seconds(out)
                    times.setdefault((f"{name} {io}", algorithm), []).append(seconds)
                    read_mb[(f"{name} {io}", algorithm)] = mb
                    if algorithm == "bfs":
                        digests[(name, algorithm)] = int(re.search(r"reached ([0-9]+) of", out).group(1))
                    elif algorithm == "wcc":
                        digests[(name, algorithm)] = int(re.search(r"([0-9]+) components", out).group(1))
                    if algorithm == "pagerank" and io == "disk" and name == "sluice":
                        records = [json.loads(line) for line in stats.read_text().splitlines()]
                        lines = [x for x in records if x["record"] == "edgemap"]  # after the "run" record
                        edgemap = statistics.median(x["bandwidth_mb_s"] for x in lines)
                        seq = run([tools / "sluice", "iobench", "--drives", ",".join(in_drives), "--pattern",
                                   "sequential", "--block-size", "256k", "--duration", "2"])
                        seq_mb = float(re.search(r"\(([0-9.]+)MB/s\)", seq).group(1))
                        scan_ratio.append(edgemap / seq_mb)
                        scan_rows.append((r, edgemap, seq_mb, lines[0]["direction"]))

        systems = [f"{name} {io}" for name, _ in sluices for io in ("disk", "memory")] + ["networkit"]
        print("| algorithm | " + " | ".join(f"{s} s" for s in systems) + " | NetworKit / sluice disk |"
              + (" before / sluice disk |" if args.before else "") + " sluice disk MB read |"
              + (" before MB read |" if args.before else ""))
        print("|" + " --- |" * (len(systems) + 3 + (2 if args.before else 0)))
        for algorithm in ("bfs", "wcc", "pagerank"):
            med = {s: statistics.median(times[(s, algorithm)]) for s in systems}
            row = f"| {algorithm} | " + " | ".join(f"{med[s]:.3f}" for s in systems)
            row += f" | {med['networkit'] / med['sluice disk']:.2f}"
            if args.before:
                row += f" | {med['before disk'] / med['sluice disk']:.2f}"
            row += f" | {read_mb[('sluice disk', algorithm)]:.0f}"
            if args.before:
                row += f" | {read_mb[('before disk', algorithm)]:.0f}"
            print(row + " |")
        print("\nFull scans (PageRank iterations, --stats bandwidth, median per run) against `sluice iobench "
              "--pattern sequential --block-size 256k` of the same drive files, same round:\n")
        print("| round | direction | EDGEMAP MB/s | sequential MB/s | ratio |")
        print("| --- | --- | --- | --- | --- |")
        for (r, edgemap, seq_mb, direction), ratio in zip(scan_rows, scan_ratio):
            print(f"| {r} | {direction} | {edgemap:.0f} | {seq_mb:.0f} | {ratio:.2f} |")
        print(f"\nmedian ratio {statistics.median(scan_ratio):.2f}")
        agree = all(digests[(name, a)] == digests[("networkit", a)] for name, _ in sluices for a in ("bfs", "wcc"))
        print("\nagreement: " + ", ".join(f"{k[0]} {k[1]} {v}" for k, v in sorted(digests.items()) if k[1] != "pagerank")
              + (" (all equal)" if agree else " (DIFFER)"))


if __name__ == "__main__":
    main()
