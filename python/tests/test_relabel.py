"""relabel=True (issue 23, 1): a SNAP file whose ids have gaps, reached
from Python: converted and opened with relabelled ids, sources given and
results returned by the input's ids, against networkx."""
from __future__ import annotations

import gzip

import networkx as nx
import numpy as np
import pytest

import sluice


@pytest.fixture(scope="module")
def snap_file(tmp_path_factory):
    """SNAP's four header lines, ids with gaps up to 2**40, duplicates."""
    rng = np.random.default_rng(11)
    ids = np.sort(rng.choice(2**40, size=400, replace=False)).astype(np.uint64)
    src = rng.choice(ids, size=2000)
    dst = rng.choice(ids, size=2000)
    src = np.concatenate([src, src[:50]])
    dst = np.concatenate([dst, dst[:50]])
    path = tmp_path_factory.mktemp("relabel") / "gaps.txt.gz"
    with gzip.open(path, "wt") as f:
        f.write("# Directed graph (each unordered pair of nodes is saved once): gaps.txt\n# ids with gaps\n")
        f.write(f"# Nodes: 400 Edges: {len(src)}\n# FromNodeId\tToNodeId\n")
        for u, v in zip(src, dst):
            f.write(f"{u}\t{v}\n")
    return path, src, dst


def test_relabelled_runs_speak_the_inputs_ids(snap_file, tmp_path):
    path, src, dst = snap_file
    layout = tmp_path / "gaps.sluice"
    sluice.convert(path, layout, relabel=True, transpose=True)
    used = np.unique(np.concatenate([src, dst]))
    with sluice.open(layout) as g:
        assert g.relabelled
        assert g.vertices == len(used)
        np.testing.assert_array_equal(g.ids, used)
    with sluice.open(path, relabel=True) as g:  # the same from the text file itself
        np.testing.assert_array_equal(g.ids, used)

    nxg = nx.MultiDiGraph()
    nxg.add_edges_from(zip(src.tolist(), dst.tolist()))
    source = int(src[0])
    r = sluice.bfs(layout, source=source)
    assert r.source == source
    np.testing.assert_array_equal(r.ids, used)
    want = nx.single_source_shortest_path_length(nxg, source)
    depth = dict(zip(r.ids.tolist(), r.depth.tolist()))
    assert {v: d for v, d in depth.items() if d >= 0} == want
    parents = dict(zip(r.ids.tolist(), r.parent.tolist()))
    for v, d in want.items():  # parents are input ids, one level up, with an edge
        if v != source:
            assert want[parents[v]] == d - 1 and nxg.has_edge(parents[v], v)

    labels = dict(zip(sluice.wcc(layout).ids.tolist(), sluice.wcc(layout).label.tolist()))
    for component in nx.weakly_connected_components(nxg):
        assert {labels[v] for v in component} == {min(component)}

    with pytest.raises(sluice.UsageError, match="not a vertex of the graph: it was relabelled"):
        sluice.bfs(layout, source=int(used[0]) + 1)


def test_unrelabelled_results_count_ids_from_zero(tmp_path):
    sluice.generate("rmat", tmp_path / "r.sluice", scale=8, transpose=True)
    r = sluice.bfs(tmp_path / "r.sluice")
    np.testing.assert_array_equal(r.ids, np.arange(256, dtype=np.uint64))
    with sluice.open(tmp_path / "r.sluice") as g:
        assert not g.relabelled
