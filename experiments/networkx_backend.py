"""networkx's pagerank, connected_components and
single_source_shortest_path_length three ways on one RMAT graph: plain
networkx, backend="sluice" with the conversion (a networkx graph written to
a temporary layout, the first call of each function), and on a layout
opened from disk. Medians of alternating rounds; the ratios are networkx's
time over sluice's.

    PYTHONPATH=... python3 experiments/networkx_backend.py --scale 18 --rounds 3 --work /tmp/nxb

Needs networkx 3.2 or later with sluice installed in the same environment
(the networkx.backends entry point), e.g. build/networkx-venv after
./run.sh test.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import networkx as nx

import sluice


def timed(call):
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default="/tmp/sluice-networkx-bench")
    args = parser.parse_args(argv)
    nx.config.warnings_to_ignore.add("cache")
    os.makedirs(args.work, exist_ok=True)
    el = os.path.join(args.work, f"rmat{args.scale}.el")
    sluice.generate("rmat", el, scale=args.scale, edge_factor=args.edge_factor, seed=1)
    load, G = timed(lambda: nx.read_edgelist(el, create_using=nx.DiGraph, nodetype=int))
    U = G.to_undirected()
    print(f"rmat {args.scale}: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges (DiGraph; read in {load:.1f} s)")
    layout = os.path.join(args.work, f"rmat{args.scale}.sluice")
    sym = os.path.join(args.work, f"rmat{args.scale}-sym.sluice")
    nodes = sluice.from_networkx(G, layout, drives=[args.work], transpose=True, force=True)
    sluice.from_networkx(U, sym, drives=[args.work], force=True)
    source = nodes[0]
    opened = sluice.open(layout)
    opened_sym = sluice.open(sym)
    calls = {
        "pagerank": (lambda g, **b: nx.pagerank(g, weight=None, **b), G, opened),
        "connected_components": (lambda g, **b: sum(1 for _ in nx.connected_components(g, **b)), U, opened_sym),
        "single_source_shortest_path_length": (
            lambda g, **b: nx.single_source_shortest_path_length(g, source if isinstance(g, nx.Graph) else 0, **b), G, opened),
    }
    print(f"{'function':36} {'networkx s':>11} {'sluice+conversion s':>20} {'sluice on layout s':>19} "
          f"{'nx / conv':>10} {'nx / layout':>12}")
    for name, (call, graph, on_disk) in calls.items():
        plain, converting, resident = [], [], []
        for _ in range(args.rounds):
            plain.append(timed(lambda: call(graph))[0])
            graph.__networkx_cache__.clear()  # the conversion, every round
            converting.append(timed(lambda: call(graph, backend="sluice"))[0])
            resident.append(timed(lambda: call(on_disk))[0])
        p, c, r = (statistics.median(x) for x in (plain, converting, resident))
        print(f"{name:36} {p:11.3f} {c:20.3f} {r:19.3f} {p / c:10.2f} {p / r:12.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
