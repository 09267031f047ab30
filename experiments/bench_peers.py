"""sluice out of core, sluice in memory (--io memory), NetworKit and GAPBS
(both in memory, kernel time only) on the same generated graphs, in
alternating rounds on one machine; with --reorder also sluice on a copy
converted with --reorder degree, and GAPBS on the same reordered graph;
with --compress also sluice on compressed copies of its layouts (the
converter's default layout; the others are plain pages, convert --plain);
plus, for full scans, the PageRank iterations' bandwidth (--stats) against
a sequential read of the same drive files measured in the same round. Run
through experiments/bench_peers.

Prints markdown tables: medians over the rounds, the ratios, bytes read,
and a check that all systems agree (vertices reached, component count).
"""

import argparse
import json
import os
import re
import shlex
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
    """Generates KIND at SCALE onto one drive directory, with the transpose,
    in plain pages (read_layout reads them; the same seed gives the same
    graph from any sluice version; SUFFIX keeps the layouts of two versions
    apart)."""
    name = f"{kind}{scale}{suffix}"
    layout = work / f"{name}.sluice"
    if not layout.exists():
        drive = work / f"{name}-drive0"
        drive.mkdir(parents=True, exist_ok=True)
        # Versions before compressed pages were the default wrote plain ones
        # and know no --plain.
        plain = ["--plain"] if "--plain" in run([tools / "sluice", "generate", "--help"]) else []
        run([tools / "sluice", "generate", kind, "-s", str(scale), "-o", layout, "--drives", drive,
             "--transpose", "-t", str(threads)] + plain)
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


def write_gapbs_graph(path, n, offsets, targets, in_order=None):
    """GAPBS's serialized graph (.sg: directed flag, edge and vertex counts
    as int64, out offsets and int32 neighbours, then the in-edges), built as
    GAPBS's converter builds it: self loops and duplicate edges removed,
    neighbours sorted."""
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
    keys = rows * n + targets.astype(np.int64)
    del rows
    keys = np.unique(keys[keys // n != keys % n])
    def csr(keys):
        owner = keys // n
        counts = np.bincount(owner, minlength=n)
        index = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=index[1:])
        return index, (keys % n).astype(np.int32)
    out_index, out_neighbours = csr(keys)
    in_index, in_neighbours = csr(np.sort((keys % n) * n + keys // n))
    with open(path, "wb") as f:
        f.write(np.array([1], dtype=np.uint8).tobytes())
        f.write(np.array([len(keys), n], dtype=np.int64).tobytes())
        for array in (out_index, out_neighbours, in_index, in_neighbours):
            f.write(array.tobytes())


def gapbs_seconds(out):
    return float(re.search(r"Trial Time:\s+([0-9.]+)", out).group(1))


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
    parser.add_argument("--gapbs", type=Path, help="a GAPBS build (bfs, cc, pr), run on the same graph")
    parser.add_argument("--reorder", action="store_true", help="also a copy converted with --reorder degree")
    parser.add_argument("--compress", action="store_true", help="also compressed copies (the converter's default) of sluice's plain layouts")
    parser.add_argument("--pagerank-flags", default="",
                        help="more flags for this build's PageRank runs (not --before's), e.g. '--shares float' as GAPBS stores them")
    args = parser.parse_args()

    import networkit as nk

    nk.setNumberOfThreads(args.threads)
    args.work.mkdir(parents=True, exist_ok=True)
    t = str(args.threads)
    gapbs_env = dict(os.environ, OMP_NUM_THREADS=t)
    for kind in args.kinds.split(","):
        layout = make_graph(args.tools, args.work, kind, args.scale, args.threads)
        # The sluice runs: (system name, tools, layout, io).
        sluices = [("sluice", args.tools, layout)]
        if args.before:  # an earlier sluice may not read this version's layout
            sluices.append(("before", args.before, make_graph(args.before, args.work, kind, args.scale, args.threads, "-before")))
        reordered = args.work / f"{kind}{args.scale}-degree.sluice"
        if args.reorder:
            if not reordered.exists():
                drive = args.work / f"{kind}{args.scale}-degree-drive0"
                drive.mkdir(parents=True, exist_ok=True)
                run([args.tools / "sluice", "convert", layout, reordered, "--reorder", "degree", "--transpose", "--plain", "--drives", drive, "-t", t])
            sluices.append(("sluice degree", args.tools, reordered))
        if args.compress:
            for name, tools, path in [x for x in sluices if x[0] != "before"]:
                compressed = path.with_name(path.stem + "-compressed.sluice")
                if not compressed.exists():
                    drive = args.work / f"{path.stem}-compressed-drive0"
                    drive.mkdir(parents=True, exist_ok=True)
                    run([tools / "sluice", "convert", path, compressed, "--compress", "--transpose", "--drives", drive, "-t", t])
                sluices.append((name + " compressed", tools, compressed))
        runs = [(f"{name} {io}", tools, path, io) for name, tools, path in sluices for io in ("disk", "memory")]
        offsets, targets, n, m, in_drives = read_layout(layout)
        if m and int(targets.max()) >= n:
            sys.exit(f"{layout}: a target beyond the vertex count; the layout was not read right")
        in_drives = [str(d) for d in in_drives]
        source = int(np.argmax(np.diff(offsets)))  # sluice's default: the highest out-degree, smallest id
        # GAPBS's graphs: the same edges, and the reordered layout's (its dense ids).
        gapbs = []  # (system name, .sg path, BFS source in its ids)
        if args.gapbs:
            sg = args.work / f"{kind}{args.scale}.sg"
            if not sg.exists():
                write_gapbs_graph(sg, n, offsets, targets)
            gapbs.append(("gapbs", sg, source))
            if args.reorder:
                sg_degree = args.work / f"{kind}{args.scale}-degree.sg"
                if not sg_degree.exists():
                    degree_offsets, degree_targets, _, _, _ = read_layout(reordered)
                    write_gapbs_graph(sg_degree, n, degree_offsets, degree_targets)
                    del degree_offsets, degree_targets
                ids = np.fromfile(reordered.with_suffix(".ids"), dtype=np.uint64, offset=64)
                gapbs.append(("gapbs degree", sg_degree, int(np.flatnonzero(ids == source)[0])))
        rows = np.repeat(np.arange(n, dtype=np.uint32), np.diff(offsets).astype(np.int64))
        graph = nk.GraphFromCoo((np.ones(m, dtype=np.float64), (rows, targets)), n, directed=True)
        del rows, offsets, targets
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

        def gapbs_run(algorithm, sg, start):
            if algorithm == "bfs":
                cmd = [args.gapbs / "bfs", "-f", sg, "-r", str(start), "-n", "1"]
            elif algorithm == "wcc":
                cmd = [args.gapbs / "cc", "-f", sg, "-n", "1"]
            else:
                cmd = [args.gapbs / "pr", "-f", sg, "-i", str(args.iterations), "-t", "0", "-n", "1"]
            return gapbs_seconds(run(cmd, env=gapbs_env))

        flags = {
            "bfs": ["--source", str(source)],  # an input id: the reordered layout takes it as well
            "wcc": [],
            "pagerank": ["--method", "classic", "--iterations", str(args.iterations), "--tolerance", "0"],
        }
        times = {}  # (system, algorithm) -> [seconds]
        read_mb = {}
        digests = {}
        scan_ratio, scan_rows = [], []
        for r in range(args.rounds):
            for algorithm in ("bfs", "wcc", "pagerank"):
                order = [("sluice", x) for x in runs] + [("networkit", None)] + [("gapbs", g) for g in gapbs]
                if r % 2:
                    order.reverse()
                for what, detail in order:
                    if what == "networkit":
                        seconds, digest = networkit(algorithm)
                        times.setdefault(("networkit", algorithm), []).append(seconds)
                        digests[("networkit", algorithm)] = digest
                        continue
                    if what == "gapbs":
                        name, sg, start = detail
                        times.setdefault((name, algorithm), []).append(gapbs_run(algorithm, sg, start))
                        continue
                    system, tools, path, io = detail
                    cmd = [tools / f"sluice-{algorithm}", path, "-t", t] + flags[algorithm]
                    if algorithm == "pagerank" and system.split()[0] != "before":
                        cmd += shlex.split(args.pagerank_flags)
                    if io == "memory":
                        cmd += ["--io", "memory"]
                    stats = args.work / "stats.jsonl"
                    if algorithm == "pagerank" and system == "sluice disk":
                        cmd += ["--stats", stats]
                    out = run(cmd)
                    seconds, mb = summary_seconds(out)
                    times.setdefault((system, algorithm), []).append(seconds)
                    read_mb[(system, algorithm)] = mb
                    if algorithm == "bfs":
                        digests[(system, algorithm)] = int(re.search(r"reached ([0-9]+) of", out).group(1))
                    elif algorithm == "wcc":
                        digests[(system, algorithm)] = int(re.search(r"([0-9]+) components", out).group(1))
                    if algorithm == "pagerank" and system == "sluice disk":
                        records = [json.loads(line) for line in stats.read_text().splitlines()]
                        lines = [x for x in records if x["record"] == "edgemap"]  # after the "run" record
                        edgemap = statistics.median(x["bandwidth_mb_s"] for x in lines)
                        seq = run([tools / "sluice", "iobench", "--drives", ",".join(in_drives), "--pattern",
                                   "sequential", "--block-size", "256k", "--duration", "2"])
                        seq_mb = float(re.search(r"\(([0-9.]+)MB/s\)", seq).group(1))
                        scan_ratio.append(edgemap / seq_mb)
                        scan_rows.append((r, edgemap, seq_mb, lines[0]["direction"]))

        systems = [x[0] for x in runs] + ["networkit"] + [g[0] for g in gapbs]
        peer = "gapbs" if gapbs else "networkit"
        print(f"Kernel seconds, medians; the ratios are each sluice's time over {peer}'s (below 1: sluice faster).\n")
        print("| algorithm | " + " | ".join(f"{s} s" for s in systems) + " | "
              + " | ".join(f"{x[0]} / {peer}" for x in runs) + " | sluice disk MB read |"
              + (" before disk MB read |" if args.before else ""))
        print("|" + " --- |" * (len(systems) + len(runs) + 2 + (1 if args.before else 0)))
        for algorithm in ("bfs", "wcc", "pagerank"):
            med = {s: statistics.median(times[(s, algorithm)]) for s in systems}
            row = f"| {algorithm} | " + " | ".join(f"{med[s]:.3f}" for s in systems)
            row += " | " + " | ".join(f"{med[x[0]] / med[peer]:.2f}" for x in runs)
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
        agree = all(digests[(x[0], a)] == digests[("networkit", a)] for x in runs for a in ("bfs", "wcc"))
        print("\nagreement: " + ", ".join(f"{k[0]} {k[1]} {v}" for k, v in sorted(digests.items()) if k[1] != "pagerank")
              + (" (all equal)" if agree else " (DIFFER)"))


if __name__ == "__main__":
    main()
