"""Checks sluice's algorithm programs against scipy and networkx.

The graph is converted (duplicate edges removed, so that networkx's DiGraph
holds the same graph) onto two drive files with its transpose; every
program writes its result with --output-format binary, which is compared
here with an independent computation:

  bfs       depths == scipy.sparse.csgraph.shortest_path (unweighted) from the source;
            every parent is one level up along a real edge
  wcc/jtcc  the partition of scipy.sparse.csgraph.connected_components(connection="weak")
  pagerank  classic/spread == networkx.pagerank; classic/drop == a scipy power iteration;
            delta (defaults) within 5% relative L1 of classic/drop
  spmv      y == A @ x and A.T @ x with scipy
  bc        == networkx.betweenness_centrality_subset from the same sources (unnormalized)
"""
import argparse
import os
import subprocess
import sys
import tempfile

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout.strip()


def read_matrix(tools, graph, work):
    """The graph as a scipy CSR matrix (weights summed), through `sluice convert --to el`."""
    text = os.path.join(work, "graph.el")
    run([f"{tools}/sluice", "convert", graph, text, "--dedup"])
    n = None
    rows, cols, vals = [], [], []
    with open(text) as f:
        for line in f:
            if line.startswith("#"):
                if "Nodes:" in line:
                    n = int(line.split("Nodes:")[1].split()[0])
                continue
            parts = line.split()
            if not parts:
                continue
            rows.append(int(parts[0]))
            cols.append(int(parts[1]))
            vals.append(float(parts[2]) if len(parts) > 2 else 1.0)
    if n is None:
        n = max(max(rows, default=-1), max(cols, default=-1)) + 1
    return text, sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


def power_iteration(A, damping, spread, tol=1e-12, cap=1000):
    n = A.shape[0]
    out_degree = np.asarray(A.astype(bool).sum(axis=1)).ravel()
    pattern = A.astype(bool).astype(float)
    rank = np.full(n, 1.0 / n)
    for _ in range(cap):
        share = np.divide(rank, out_degree, out=np.zeros(n), where=out_degree > 0)
        dangling = rank[out_degree == 0].sum() if spread else 0.0
        nxt = (1 - damping) / n + damping * (pattern.T @ share + dangling / n)
        change = np.abs(nxt - rank).sum()
        rank = nxt
        if change < tol:
            break
    return rank


def same_partition(a, b):
    # Both label by smallest member, so equal arrays mean equal partitions;
    # scipy numbers components 0..k-1, so map them to their smallest member.
    return np.array_equal(a, b)


def smallest_member_labels(labels):
    first = {}
    for v, c in enumerate(labels):
        first.setdefault(c, v)
    return np.array([first[c] for c in labels], dtype=np.uint64)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("graph", nargs="?", help="input graph (default: RMAT scale 12, generated)")
    parser.add_argument("--tools", required=True, help="folder with sluice and the programs")
    parser.add_argument("--source", type=int, default=-1, help="BFS/BC source (default: highest out-degree)")
    parser.add_argument("--edgemap", default="binning", help="binning or atomic")
    parser.add_argument("--io", default="auto")
    args = parser.parse_args()
    tools = args.tools
    rows = []

    def check(program, what, ok, detail):
        rows.append((program, what, "pass" if ok else "FAIL", detail))

    with tempfile.TemporaryDirectory(prefix="sluice-validate-") as work:
        graph = args.graph
        if graph is None:
            graph = os.path.join(work, "rmat12.el")
            run([f"{tools}/sluice", "generate", "rmat", "--scale", "12", "--edge-factor", "8", "--seed", "11", "-o", graph])
        text, A = read_matrix(tools, graph, work)
        n = A.shape[0]
        drives = [os.path.join(work, f"drive{d}") for d in range(2)]
        for d in drives:
            os.makedirs(d)
        layout = os.path.join(work, "g.sluice")
        run([f"{tools}/sluice", "convert", text, layout, "--drives", ",".join(drives), "--transpose"])
        common = ["--edgemap", args.edgemap, "--io", args.io, "--output-format", "binary"]
        out = lambda name: os.path.join(work, name)
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        coo = A.tocoo()
        G.add_edges_from(zip(coo.row.tolist(), coo.col.tolist()))

        degree = np.diff(A.indptr)
        source = args.source if args.source >= 0 else int(np.argmax(degree))

        # BFS
        run([f"{tools}/sluice-bfs", layout, "--source", str(source), "-o", out("depth"), "--parents", out("parent")] + common)
        depth = np.fromfile(out("depth"), dtype=np.int64)
        parent = np.fromfile(out("parent"), dtype=np.int64)
        dist = csgraph.shortest_path(A, method="D", unweighted=True, indices=source)
        expected = np.where(np.isinf(dist), -1, dist).astype(np.int64)
        check("bfs", f"depths from {source} vs scipy shortest_path", np.array_equal(depth, expected),
              f"{int((expected >= 0).sum())} reached, max depth {int(expected.max())}")
        reached = np.flatnonzero((depth > 0))
        pattern = A.astype(bool).tolil()
        good = all(depth[parent[v]] == depth[v] - 1 and pattern[parent[v], v] for v in reached)
        check("bfs", "parents one level up along an edge", good and parent[source] == source, f"{len(reached)} parents")

        # Components
        k, labels = csgraph.connected_components(A, directed=True, connection="weak")
        expected = smallest_member_labels(labels)
        run([f"{tools}/sluice-wcc", layout, "-o", out("wcc")] + common)
        run([f"{tools}/sluice-jtcc", text, "-o", out("jtcc"), "--output-format", "binary"])
        check("wcc", "partition vs scipy connected_components", same_partition(np.fromfile(out("wcc"), dtype=np.uint64), expected), f"{k} components")
        check("jtcc", "partition vs scipy connected_components", same_partition(np.fromfile(out("jtcc"), dtype=np.uint64), expected), f"{k} components")

        # PageRank
        run([f"{tools}/sluice-pagerank", layout, "--method", "classic", "--dangling", "spread", "--tolerance", "1e-12",
             "--iterations", "1000", "-o", out("pr_spread")] + common)
        nx_rank = nx.pagerank(G, alpha=0.85, tol=1e-13, max_iter=1000)
        reference = np.array([nx_rank[v] for v in range(n)])
        ours = np.fromfile(out("pr_spread"), dtype=np.float64)
        err = np.abs(ours - reference).max()
        check("pagerank", "classic, spread vs networkx.pagerank", err < 1e-9, f"max abs error {err:.2e}")
        run([f"{tools}/sluice-pagerank", layout, "--method", "classic", "--tolerance", "1e-12", "--iterations", "1000",
             "-o", out("pr_drop")] + common)
        reference = power_iteration(A, 0.85, spread=False)
        ours = np.fromfile(out("pr_drop"), dtype=np.float64)
        err = np.abs(ours - reference).max()
        check("pagerank", "classic, drop vs scipy power iteration", err < 1e-9, f"max abs error {err:.2e}")
        run([f"{tools}/sluice-pagerank", layout, "-o", out("pr_delta")] + common)
        ours = np.fromfile(out("pr_delta"), dtype=np.float64)
        rel = np.abs(ours - reference).sum() / reference.sum()
        check("pagerank", "delta (defaults) vs power iteration, relative L1", rel < 0.05, f"{rel:.4f} (bound 0.05)")

        # SpMV
        x = np.cos(np.arange(n, dtype=np.float64))
        x.tofile(out("x"))
        run([f"{tools}/sluice-spmv", layout, "--x", out("x"), "-o", out("y")] + common)
        run([f"{tools}/sluice-spmv", layout, "--x", out("x"), "--transposed", "-o", out("yt")] + common)
        for name, expected, what in (("y", A @ x, "y = A x"), ("yt", A.T @ x, "y = A^T x")):
            ours = np.fromfile(out(name), dtype=np.float64)
            err = np.abs(ours - expected).max() / max(1.0, np.abs(expected).max())
            check("spmv", f"{what} vs scipy", err < 1e-12, f"max relative error {err:.2e}")

        # BC
        sources = [source, int(np.argsort(degree)[-2]) if n > 1 else source]
        sources = sorted(set(sources))
        run([f"{tools}/sluice-bc", layout, "--sources", ",".join(map(str, sources)), "-o", out("bc")] + common)
        nx_bc = nx.betweenness_centrality_subset(G, sources=sources, targets=list(range(n)), normalized=False)
        reference = np.array([nx_bc[v] for v in range(n)])
        ours = np.fromfile(out("bc"), dtype=np.float64)
        err = np.abs(ours - reference).max() / max(1.0, np.abs(reference).max())
        check("bc", f"sources {sources} vs networkx betweenness_centrality_subset", err < 1e-9, f"max relative error {err:.2e}")

    print(f"graph: {args.graph or 'RMAT scale 12 (generated)'}, {n} vertices, {A.nnz} distinct edges, "
          f"EDGEMAP {args.edgemap}, IO {args.io}")
    width = max(len(r[1]) for r in rows)
    print(f"{'program':<9} {'check':<{width}} {'result':<6} detail")
    for program, what, result, detail in rows:
        print(f"{program:<9} {what:<{width}} {result:<6} {detail}")
    failed = sum(r[2] != "pass" for r in rows)
    print(f"{len(rows) - failed} of {len(rows)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
