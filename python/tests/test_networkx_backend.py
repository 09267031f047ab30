"""sluice as a networkx backend (networkx 3.2 or later; skipped with an
older one): networkx graphs dispatched with backend="sluice", and layouts
passed straight to networkx's functions, against networkx itself."""
from __future__ import annotations


import pytest

import sluice
from conftest import interrupted_child

nx = pytest.importorskip("networkx", minversion="3.2")


@pytest.fixture(autouse=True)
def quiet_cache():
    nx.config.warnings_to_ignore.add("cache")


def labelled(directed: bool):
    """A graph whose nodes are strings and tuples, with two components."""
    g = nx.gnp_random_graph(60, 0.06, seed=4, directed=directed)
    g.add_nodes_from([60, 61])
    g.add_edge(60, 61)
    return nx.relabel_nodes(g, {v: (f"n{v}" if v % 2 else ("pair", v)) for v in g})


def close(a: dict, b: dict, tolerance: float) -> bool:
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) <= tolerance for k in a)


def test_it_is_registered():
    assert "sluice" in nx.utils.backends.backends
    info = nx.utils.backends.backend_info["sluice"]
    assert "pagerank" in info["functions"] and "betweenness_centrality" in info["functions"]


@pytest.mark.parametrize("directed", [False, True])
def test_networkx_graphs_dispatched(directed):
    g = labelled(directed)
    assert close(nx.pagerank(g, backend="sluice"), nx.pagerank(g), 1e-6)
    source = next(iter(g))
    assert nx.single_source_shortest_path_length(g, source, backend="sluice") == nx.single_source_shortest_path_length(g, source)
    bc = nx.betweenness_centrality(g, backend="sluice")
    assert close(bc, nx.betweenness_centrality(g), 1e-9)
    if directed:
        got = sorted(map(sorted, map(lambda c: map(str, c), nx.weakly_connected_components(g, backend="sluice"))))
        assert got == sorted(map(sorted, map(lambda c: map(str, c), nx.weakly_connected_components(g))))
        assert nx.number_weakly_connected_components(g, backend="sluice") == nx.number_weakly_connected_components(g)
    else:
        assert {frozenset(c) for c in nx.connected_components(g, backend="sluice")} == {
            frozenset(c) for c in nx.connected_components(g)}
        assert nx.core_number(g, backend="sluice") == nx.core_number(g)
        assert nx.triangles(g, backend="sluice") == nx.triangles(g)
        assert nx.triangles(g, ("pair", 60), backend="sluice") == nx.triangles(g, ("pair", 60))
        assert nx.clustering(g, backend="sluice") == nx.clustering(g)
        assert nx.transitivity(g, backend="sluice") == nx.transitivity(g)
        assert nx.average_clustering(g, count_zeros=False, backend="sluice") == nx.average_clustering(g, count_zeros=False)
        assert nx.node_connected_component(g, ("pair", 60), backend="sluice") == {("pair", 60), "n61"}


def test_weights_and_multigraphs():
    g = nx.MultiDiGraph()
    g.add_weighted_edges_from([("a", "b", 3), ("a", "b", 1), ("b", "c", 2), ("a", "c", 7), ("c", "a", -1)])
    assert nx.single_source_bellman_ford_path_length(g, "a", backend="sluice") == {"a": 0, "b": 1, "c": 3}
    g.add_weighted_edges_from([("c", "b", -5)])  # b -> c -> b: a negative cycle
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(g, "a", backend="sluice")
    assert nx.negative_edge_cycle(g, backend="sluice") is True
    g.remove_edge("c", "b")
    assert nx.negative_edge_cycle(g, backend="sluice") is False
    h = nx.DiGraph([(1, 2, {"weight": -3}), (3, 4, {"weight": 2}), (4, 3, {"weight": -2})])
    assert nx.negative_edge_cycle(h, backend="sluice") is False  # 3 -> 4 -> 3 weighs 0
    h.add_edge(4, 3, weight=-3)
    assert nx.negative_edge_cycle(h, backend="sluice") is True  # not reachable from 1: found anyway
    assert nx.negative_edge_cycle(nx.Graph([(1, 2, {"weight": -1})]), backend="sluice") is True  # 1 - 2 - 1
    u = nx.Graph()
    u.add_weighted_edges_from([(1, 2, 4), (2, 3, 1), (1, 3, 6)])
    assert nx.single_source_dijkstra_path_length(u, 1, backend="sluice") == {1: 0, 2: 4, 3: 5}
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(u, 9, backend="sluice")


def test_what_it_declines_says_why():
    from sluice.networkx_backend import can_run

    g = nx.path_graph(4)
    assert can_run("pagerank", (g,), {}) is True
    assert "personalization" in can_run("pagerank", (g,), {"personalization": {0: 1}})
    nx.set_edge_attributes(g, 2.5, "weight")
    assert "weights" in can_run("pagerank", (g,), {})
    assert "not an integer" in can_run("single_source_dijkstra_path_length", (g, 0), {})
    assert "does not implement" in can_run("square_clustering", (g,), {})
    assert "weighted clustering" in can_run("clustering", (g,), {"weight": "weight"})
    assert "directed" in can_run("transitivity", (nx.DiGraph(g),), {})


def test_a_layout_passed_straight_to_networkx(tmp_path):
    g = labelled(False)
    nodes = sluice.from_networkx(g, tmp_path / "g.sluice", drives=[tmp_path])
    layout = sluice.open(tmp_path / "g.sluice")
    # No backend= needed: the layout is the sluice backend's graph. Results
    # come keyed by vertex id; nodes[v] names them.
    ranks = nx.pagerank(layout)
    expected = nx.pagerank(g)
    assert close({nodes[v]: r for v, r in ranks.items()}, expected, 1e-6)
    assert nx.number_connected_components(layout) == nx.number_connected_components(g)
    assert nx.core_number(layout) == {nodes.index(v): c for v, c in nx.core_number(g).items()}
    layout.close()
    # Relabelled: the input's ids.
    (tmp_path / "g.el").write_text("10 20\n20 30\n30 10\n40 50\n")
    sluice.convert(tmp_path / "g.el", tmp_path / "r.sluice", relabel=True, transpose=True)
    with sluice.open(tmp_path / "r.sluice") as r:
        assert r.is_directed()
        assert nx.single_source_shortest_path_length(r, 20) == {20: 0, 30: 1, 10: 2}
        assert nx.number_weakly_connected_components(r) == 2


def test_errors(tmp_path):
    with pytest.raises(sluice.Error, match="missing.sluice"):
        nx.pagerank(sluice.open(tmp_path / "missing.sluice"))
    g = nx.path_graph(50)
    sluice.from_networkx(g, tmp_path / "g.sluice", drives=[tmp_path])
    layout = sluice.open(tmp_path / "g.sluice")
    drive = tmp_path / "g.out.0"
    with open(drive, "r+b") as f:  # a damaged page
        f.seek(4096 + 100)
        f.write(b"\xff" * 8)
    with pytest.raises(sluice.Error, match=r"checksum"):
        nx.pagerank(layout)
    layout.close()


CHILD = """
import signal, sys, networkx as nx, sluice
# As at a terminal (a background job of a script starts with SIGINT ignored).
signal.signal(signal.SIGINT, signal.default_int_handler)
nx.config.warnings_to_ignore.add("cache")
sluice.generate("rmat", sys.argv[1] + "/big.el", scale=14, edge_factor=8, seed=1)
g = nx.read_edgelist(sys.argv[1] + "/big.el", create_using=nx.DiGraph, nodetype=int)
nx.pagerank(g, backend="sluice", max_iter=2, tol=1)  # converted once, cached on g
print("running", flush=True)
try:
    nx.pagerank(g, backend="sluice", max_iter=10**9, tol=0)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print(round(nx.pagerank(nx.path_graph(3), backend="sluice")[1], 6), flush=True)
"""


def test_ctrl_c_during_a_dispatched_call(tmp_path):
    returncode, out, err = interrupted_child(CHILD, str(tmp_path))
    assert returncode == 0, err
    assert out.split() == ["interrupted", str(round(nx.pagerank(nx.path_graph(3))[1], 6))], out + err
