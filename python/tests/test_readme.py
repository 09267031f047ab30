"""The README's Python example, run as it is written on a small SNAP-style
file (with its two path lines pointed here)."""
from __future__ import annotations

import gzip
import pathlib
import re

import numpy as np
import pytest

from conftest import rmat_edges

README = pathlib.Path(__file__).parents[2] / "README.md"


def example() -> str:
    text = README.read_text()
    marker = text.index("<!-- python example")
    return re.search(r"```python\n(.*?)```", text[marker:], re.S).group(1)


def test_readme_example(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pandas")
    # As SNAP ships web-Google: four header lines, a "# Nodes:" count below
    # the largest id + 1 (ids skip), and edges that repeat (RMAT's do).
    src, dst = rmat_edges(9, 6, 21)
    src, dst = src * 3 + 1, dst * 3 + 1  # ids 1, 4, 7, ...: gaps
    pairs = list(zip(src.tolist(), dst.tolist()))
    assert len(set(pairs)) < len(pairs), "the file must repeat edges"
    nodes = len(set(src.tolist()) | set(dst.tolist()))
    assert nodes < max(max(src), max(dst)) + 1
    lines = ["# Directed graph (each unordered pair of nodes is saved once): web-Google.txt",
             "# Webgraph from the Google programming contest, 2002",
             f"# Nodes: {nodes} Edges: {len(pairs)}",
             "# FromNodeId\tToNodeId"]
    lines += [f"{s}\t{d}" for s, d in pairs]
    (tmp_path / "web-Google.txt.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    (tmp_path / "d0").mkdir()
    (tmp_path / "d1").mkdir()
    code = example()
    code = re.sub(r'^drives = .*$', 'drives = ["d0", "d1"]', code, flags=re.M)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "converted el -> sluice" in out and "iterations" in out
    top = [line.split() for line in out.splitlines() if re.fullmatch(r"\s*\d+\s+[0-9.e-]+", line)]
    assert len(top) == 10
    ranks = [float(r) for _, r in top]
    assert ranks == sorted(ranks, reverse=True) and np.all(np.array(ranks) > 0)
