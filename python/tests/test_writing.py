"""convert, generate, from_arrays, from_scipy and from_networkx: results,
the command line's options and errors, and nothing left behind by a
failed call."""
from __future__ import annotations

import os

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import sluice
from conftest import run_program


def listing(folder) -> list[str]:
    return sorted(os.listdir(folder))


def test_generate_and_convert(tmp_path, programs):
    sluice.generate("rmat", tmp_path / "a.el", scale=8, edge_factor=4, seed=5)
    run_program(programs, "sluice", "generate", "rmat", "--scale", 8, "--edge-factor", 4, "--seed", 5, "-o", tmp_path / "b.el")
    assert (tmp_path / "a.el").read_bytes() == (tmp_path / "b.el").read_bytes()  # the same seed, the same graph
    for d in ("d0", "d1"):
        (tmp_path / d).mkdir()
    summary = sluice.convert(tmp_path / "a.el", tmp_path / "a.sluice", drives=[tmp_path / "d0", tmp_path / "d1"], transpose=True)
    assert summary.startswith("converted el -> sluice: 256 vertices")
    with sluice.open(tmp_path / "a.el") as text, sluice.open(tmp_path / "a.sluice") as layout:
        assert (text.to_scipy() != layout.to_scipy()).nnz == 0
    assert sluice.wcc(tmp_path / "a.sluice").components >= 1
    sluice.generate("uniform", tmp_path / "u.sluice", scale=6, weighted=True, transpose=True)
    with sluice.open(tmp_path / "u.sluice") as g:
        assert g.vertices == 64 and g.weighted and g.edges == 64 * 16


def test_command_errors(tmp_path):
    (tmp_path / "g.el").write_text("0 1\n")
    with pytest.raises(sluice.UsageError, match="cannot tell the output format"):
        sluice.convert(tmp_path / "g.el", tmp_path / "g.unknown")
    with pytest.raises(sluice.UsageError, match="--transpose is stored only in sluice's layout"):
        sluice.convert(tmp_path / "g.el", tmp_path / "g.mtx", transpose=True)
    with pytest.raises(TypeError, match="did you mean 'drives'"):
        sluice.convert(tmp_path / "g.el", tmp_path / "g.sluice", drivs=["x"])
    with pytest.raises(sluice.UsageError, match="--scale"):
        sluice.generate("rmat", tmp_path / "x.el", scale=-3)
    with pytest.raises(sluice.Error, match="rmat or uniform"):
        sluice.generate("smallworld", tmp_path / "x.el")
    (tmp_path / "bad.el").write_text("0 1\n2\n")
    before = listing(tmp_path)
    with pytest.raises(sluice.InputError, match=r"bad.el:line 2"):
        sluice.convert(tmp_path / "bad.el", tmp_path / "bad.sluice")
    assert listing(tmp_path) == before  # nothing half-written


def test_drive_files_of_another_layout_are_refused(tmp_path):
    (tmp_path / "A").mkdir()
    (tmp_path / "B").mkdir()
    (tmp_path / "D").mkdir()
    a = scipy.sparse.csr_matrix(np.eye(4, k=1, dtype=np.float32))
    sluice.from_scipy(a, tmp_path / "A" / "g.sluice", drives=[tmp_path / "D"])
    with pytest.raises(sluice.Error, match="belong to another layout|--force"):
        sluice.from_scipy(a, tmp_path / "B" / "g.sluice", drives=[tmp_path / "D"])
    sluice.from_scipy(a, tmp_path / "B" / "g.sluice", drives=[tmp_path / "D"], force=True)


def test_from_scipy_round_trip(tmp_path):
    rng = np.random.default_rng(3)
    a = scipy.sparse.random(200, 200, density=0.05, format="csr", random_state=4, dtype=np.float32) * 10
    sluice.from_scipy(a, tmp_path / "w.sluice", transpose=True)
    with sluice.open(tmp_path / "w.sluice") as g:
        assert g.weighted
        assert abs(g.to_scipy() - a).max() == 0
    x = rng.random(200)
    np.testing.assert_allclose(sluice.spmv(tmp_path / "w.sluice", x).y, a.astype(np.float64) @ x, rtol=1e-6)
    coo = a.tocoo()  # any sparse format
    sluice.from_scipy(coo, tmp_path / "u.el", weighted=False)
    with sluice.open(tmp_path / "u.el") as g:
        assert not g.weighted and g.edges == a.nnz


def test_from_arrays_checks_the_csr(tmp_path):
    before = listing(tmp_path)
    with pytest.raises(sluice.InputError, match=r"indices\[2\]: vertex id 7 is not below the 3 vertices"):
        sluice.from_arrays([0, 2, 3, 3], [1, 2, 7], tmp_path / "g.sluice")
    with pytest.raises(sluice.InputError, match=r"indptr\[2\]: offsets must not decrease"):
        sluice.from_arrays([0, 2, 1, 3], [1, 2, 0], tmp_path / "g.sluice")
    with pytest.raises(sluice.InputError, match=r"indptr\[3\]: expected the number of indices, 3, found 2"):
        sluice.from_arrays([0, 1, 2, 2], [1, 2, 0], tmp_path / "g.sluice")
    with pytest.raises(sluice.InputError, match="negative"):
        sluice.from_arrays([0, 1], [-1], tmp_path / "g.sluice")
    with pytest.raises(sluice.InputError, match="one weight per index"):
        sluice.from_arrays([0, 1, 1], [1], tmp_path / "g.sluice", weights=[1.0, 2.0])
    with pytest.raises(sluice.UsageError, match="square"):
        sluice.from_scipy(scipy.sparse.csr_matrix((3, 4)), tmp_path / "g.sluice")
    with pytest.raises(sluice.UsageError, match="scipy sparse matrix"):
        sluice.from_scipy(np.eye(3), tmp_path / "g.sluice")
    assert listing(tmp_path) == before
    sluice.from_arrays(np.array([0, 2, 3, 3]), np.array([1, 2, 0], dtype=np.int64), tmp_path / "g.mtx")
    assert (tmp_path / "g.mtx").read_text().splitlines()[-3:] == ["1 2", "1 3", "2 1"]


def test_from_networkx(tmp_path):
    g = nx.Graph()
    g.add_edge("a", "b", weight=2.5)
    g.add_edge("b", "c", weight=1.0)
    g.add_node("lonely")
    nodes = sluice.from_networkx(g, tmp_path / "g.sluice", weight="weight", transpose=True)
    assert nodes == ["a", "b", "c", "lonely"]
    with sluice.open(tmp_path / "g.sluice") as s:
        assert s.vertices == 4 and s.edges == 4 and s.weighted  # undirected: both ways
        m = s.to_scipy()
        assert m[0, 1] == m[1, 0] == 2.5 and m[1, 2] == 1.0
    labels = sluice.wcc(tmp_path / "g.sluice").label
    assert labels.tolist() == [0, 0, 0, 3]
    d = nx.gn_graph(60, seed=2)  # directed
    nodes = sluice.from_networkx(d, tmp_path / "d.sluice", transpose=True)
    depth = sluice.bfs(tmp_path / "d.sluice", source=nodes.index(5)).depth
    lengths = nx.single_source_shortest_path_length(d, 5)
    assert {nodes[v]: int(x) for v, x in enumerate(depth) if x >= 0} == lengths


def test_from_networkx_keeps_parallel_edges(tmp_path):
    d = nx.MultiDiGraph()
    d.add_edges_from([(0, 1), (0, 1), (0, 2), (1, 2), (2, 0), (2, 0), (2, 0), (3, 3), (3, 3), (1, 3)])
    d.add_edge(1, 2, w=4.0)
    nodes = sluice.from_networkx(d, tmp_path / "d.sluice", transpose=True)
    with sluice.open(tmp_path / "d.sluice") as g:
        assert g.edges == d.number_of_edges() == 11
    ranks = sluice.pagerank(tmp_path / "d.sluice", method="classic", dangling="spread", tolerance=1e-10, max_iterations=200).rank
    expected = nx.pagerank(d, tol=1e-12, max_iter=500)  # networkx counts parallel edges as weight
    assert max(abs(ranks[i] - expected[node]) for i, node in enumerate(nodes)) < 1e-6
    nodes = sluice.from_networkx(d, tmp_path / "w.sluice", weight="w")
    with sluice.open(tmp_path / "w.sluice") as g:
        targets, weights = g.read_edges(1, 2)
        assert sorted(zip(targets.tolist(), weights.tolist())) == [(2, 1.0), (2, 4.0), (3, 1.0)]
    u = nx.MultiGraph([(0, 1), (0, 1), (1, 1)])
    sluice.from_networkx(u, tmp_path / "u.sluice")
    with sluice.open(tmp_path / "u.sluice") as g:
        assert g.edges == 5  # each parallel edge both ways, the self loop once
        assert g.offsets().tolist() == [0, 2, 5]


@pytest.mark.parametrize(
    "bad, why",
    [
        (np.nan, "nan or infinite"),
        (np.inf, "nan or infinite"),
        (-np.inf, "nan or infinite"),
        (1e39, "beyond float32's range"),
        (None, "nan or infinite"),
    ],
)
def test_weights_the_converter_refuses_are_refused(tmp_path, bad, why):
    before = listing(tmp_path)
    weights = [1.0, 2.0, bad]
    for path in ("g.sluice", "g.wel", "g.mtx"):
        with pytest.raises(sluice.InputError, match=rf"weights\[2\]: the weight is {why}"):
            sluice.from_arrays([0, 2, 3, 3], [1, 2, 0], tmp_path / path, weights=weights)
    data = np.array([1.0, 2.0, np.nan if bad is None else bad])
    with pytest.raises(sluice.InputError, match=rf"weights\[2\]: the weight is {why}"):
        sluice.from_scipy(scipy.sparse.csr_matrix((data, [1, 2, 0], [0, 2, 3, 3]), shape=(3, 3)), tmp_path / "s.sluice")
    g = nx.DiGraph()
    g.add_edge("a", "b", w=1.0)
    g.add_edge("b", "c", w=np.nan if bad is None else bad)
    with pytest.raises(sluice.InputError, match=rf"weights\[1\]: the weight is {why}"):
        sluice.from_networkx(g, tmp_path / "n.sluice", weight="w")
    assert listing(tmp_path) == before  # refused before anything was written
    # The largest float32 and integer weights are fine.
    sluice.from_arrays([0, 1, 2], [1, 0], tmp_path / "ok.sluice", weights=np.array([3.4028234e38, 7], dtype=np.float32))
    with sluice.open(tmp_path / "ok.sluice") as ok:
        assert list(ok.read_edges()[1]) == [np.float32(3.4028234e38), 7.0]


def test_from_networkx_says_what_it_kept_and_keys_results_by_node(tmp_path):
    g = nx.MultiGraph()
    g.add_edges_from([("a", "b"), ("a", "b"), ("b", ("c", 1)), (("c", 1), ("c", 1))])
    g.add_node(frozenset({"lonely"}))
    nodes = sluice.from_networkx(g, tmp_path / "g.sluice")
    assert isinstance(nodes, sluice.Nodes) and list(nodes) == ["a", "b", ("c", 1), frozenset({"lonely"})]
    assert (nodes.edges, nodes.self_loops, nodes.parallel, nodes.isolated, nodes.left_out) == (7, 1, 1, 1, 0)
    assert nodes.summary == (
        "from_networkx: 4 nodes as vertices 0 .. 3, 7 edges stored; 1 self loops kept (networkx's core_number refuses "
        "them; convert with drop_self_loops=True to leave them out); 1 parallel edges kept; 1 isolated nodes kept as "
        "vertices without edges"
    )
    # Results keyed by the nodes, as networkx keys its own; component labels are nodes too.
    depth = sluice.bfs(tmp_path / "g.sluice", source=nodes.index("a")).by_node(nodes)
    assert depth == {"a": 0, "b": 1, ("c", 1): 2, frozenset({"lonely"}): -1}
    components = sluice.wcc(tmp_path / "g.sluice").by_node(nodes)
    assert components == {"a": "a", "b": "a", ("c", 1): "a", frozenset({"lonely"}): frozenset({"lonely"})}
    d = nx.gnp_random_graph(40, 0.1, seed=3, directed=True)
    d = nx.relabel_nodes(d, {v: f"n{v}" for v in d})
    nodes = sluice.from_networkx(d, tmp_path / "d.sluice", nodelist=sorted(d)[5:])
    assert nodes.left_out == sum(1 for u, v in d.edges() if u in sorted(d)[:5] or v in sorted(d)[:5])
    ranks = sluice.pagerank(tmp_path / "d.sluice", method="classic", dangling="spread", tolerance=1e-12, max_iterations=500)
    expected = nx.pagerank(d.subgraph(nodes), tol=1e-13, max_iter=1000)
    got = ranks.by_node(nodes)
    assert got.keys() == expected.keys() and max(abs(got[v] - expected[v]) for v in expected) < 1e-9
    with pytest.raises(sluice.UsageError, match="nodes names 3 nodes; the result has 35 vertices"):
        ranks.by_node(nodes[:3])
    assert ranks.by_node() == {i: r for i, r in enumerate(ranks.rank.tolist())}  # by id without nodes
