"""The README's tour and docs/python.md's networkx example, run as they are
written (downloads and drive paths pointed here) on a SNAP-shaped file with
id gaps, repeated edges and self loops, and every output checked against
networkx on that file."""
from __future__ import annotations

import gzip
import os
import pathlib
import re
import subprocess

import numpy as np
import pytest

from conftest import rmat_edges

ROOT = pathlib.Path(__file__).parents[2]


def block(document: str, marker: str, language: str) -> str:
    text = (ROOT / document).read_text()
    at = text.index(f"<!-- {marker}")
    return re.search(rf"```{language}\n(.*?)```", text[at:], re.S).group(1)


def snap_file(folder: pathlib.Path) -> pathlib.Path:
    """As SNAP ships web-Google: header lines, ids that skip, edges that
    repeat (RMAT's do), a few self loops, one vertex named only by its self
    loop."""
    src, dst = rmat_edges(9, 6, 21)
    src, dst = src * 3 + 1, dst * 3 + 1  # ids 1, 4, 7, ...: gaps
    pairs = list(zip(src.tolist(), dst.tolist()))
    pairs += [(v, v) for v in sorted(set(src.tolist()))[:5]] + [(100000, 100000)]
    assert len(set(pairs)) < len(pairs), "the file must repeat edges"
    lines = ["# Directed graph (each unordered pair of nodes is saved once): web-Google.txt",
             "# Webgraph from the Google programming contest, 2002",
             f"# Nodes: {len(set(src.tolist()) | set(dst.tolist()))} Edges: {len(pairs)}",
             "# FromNodeId\tToNodeId"]
    lines += [f"{s}\t{d}" for s, d in pairs]
    path = folder / "web-Google.txt.gz"
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    return path


def read_pairs(path: pathlib.Path, kind=float) -> dict[int, float]:
    return {int(a): kind(b) for a, b in (line.split() for line in path.read_text().splitlines())}


def test_readme_tour(tmp_path, programs, monkeypatch, capsys):
    nx = pytest.importorskip("networkx")
    pytest.importorskip("pandas")
    snap = snap_file(tmp_path)
    for d in ("nvme0", "nvme1"):
        (tmp_path / d).mkdir()
    shell = block("README.md", "tour: shell", "sh")
    assert shell.count("wget ") == 1 and "export PATH=$PWD/build/tools:$PATH" in shell
    shell = re.sub(r"^wget .*$", "", shell, flags=re.M)
    shell = shell.replace("export PATH=$PWD/build/tools:$PATH", f"export PATH={programs}:$PATH")
    shell = shell.replace("/mnt/", f"{tmp_path}/")
    environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                       OMPI_MCA_rmaps_base_oversubscribe="1")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", shell], cwd=tmp_path, env=environment, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 ranks: the same depths" in done.stdout

    # Every output against networkx on the file itself.
    G = nx.read_edgelist(snap, create_using=nx.MultiDiGraph, nodetype=int)
    depth = read_pairs(tmp_path / "depth.txt", int)
    assert depth.keys() == set(G)  # relabelled: the ids that appear in an edge, and only those
    source = next(v for v, d in depth.items() if d == 0)
    lengths = nx.single_source_shortest_path_length(G, source)
    assert {v: d for v, d in depth.items() if d >= 0} == lengths
    rank = read_pairs(tmp_path / "rank.txt")
    expected = nx.pagerank(G, tol=1e-12, max_iter=1000)
    assert max(abs(rank[v] - expected[v]) for v in G) < 1e-8
    component = read_pairs(tmp_path / "component.txt", int)
    assert component == {v: min(c) for c in nx.weakly_connected_components(G) for v in c}
    simple = nx.Graph(G.to_undirected())
    simple.remove_edges_from(list(nx.selfloop_edges(simple)))
    core = read_pairs(tmp_path / "core.txt", int)
    expected_core = nx.core_number(simple)
    assert core == expected_core and core[100000] == 0  # named by a self loop alone: kept, as networkx keeps it

    python = block("README.md", "tour: python", "python")
    monkeypatch.chdir(tmp_path)
    exec(compile(python, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "iterations" in out and "MB read" in out
    top = [line.split() for line in out.splitlines() if re.fullmatch(r"\d+\s+[0-9.e-]+", line)]
    assert len(top) == 10 and all(int(v) in G for v, _ in top)
    ranks = [float(r) for _, r in top]
    assert ranks == sorted(ranks, reverse=True) and np.all(np.array(ranks) > 0)


def test_python_doc_networkx_example(tmp_path, monkeypatch, capsys):
    pytest.importorskip("networkx")
    code = block("docs/python.md", "python networkx example", "python")
    (tmp_path / "nvme0").mkdir()
    code = code.replace('"/mnt/nvme0"', f'"{tmp_path / "nvme0"}"')
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/python.md", "exec"), {})
    assert capsys.readouterr().out.startswith("from_networkx: 77 nodes as vertices 0 .. 76, 508 edges stored")
