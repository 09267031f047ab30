"""Every algorithm's arrays against plain references (a queue BFS,
union-find, power iteration, scipy's product), networkx, and the
programs' own --output, on graphs of many shapes, through every IO
backend and direction, on one and two drives."""
from __future__ import annotations

import collections

import networkx as nx
import os

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph

import sluice
from conftest import run_program, threads_after, threads_now

SHAPES = ["empty", "one_vertex", "self_loops", "duplicates", "isolated", "star", "chain", "rmat", "uniform"]
ENGINES = [
    dict(io="uring", direction="auto"),
    dict(io="aio", direction="push"),
    dict(io="psync", direction="pull"),
    dict(io="uring", direction="pull", pull_cache=0),
    dict(io="aio", direction="pull", pull_cache="4k", page_cache="24k"),
    dict(io="psync", direction="auto", page_cache="64m"),
    dict(io="memory", direction="auto", edgemap="atomic"),
    dict(io="auto", direction="push", skip_threshold="inf", verify_reads=False),
]


def reference_bfs(a: scipy.sparse.csr_matrix, source: int) -> np.ndarray:
    depth = np.full(a.shape[0], -1, dtype=np.int64)
    depth[source] = 0
    queue = collections.deque([source])
    while queue:
        v = queue.popleft()
        for w in a.indices[a.indptr[v] : a.indptr[v + 1]]:
            if depth[w] < 0:
                depth[w] = depth[v] + 1
                queue.append(w)
    return depth


def reference_components(a: scipy.sparse.csr_matrix) -> np.ndarray:
    parent = list(range(a.shape[0]))

    def find(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    coo = a.copy().tocoo()
    for u, v in zip(coo.row, coo.col):
        ru, rv = find(int(u)), find(int(v))
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    return np.array([find(v) for v in range(a.shape[0])], dtype=np.uint64)


def reference_pagerank(a: scipy.sparse.csr_matrix, damping=0.85, iterations=200) -> np.ndarray:
    """Power iteration, dangling rank spread evenly (networkx's definition)."""
    n = a.shape[0]
    out_degree = np.diff(a.indptr).astype(np.float64)  # duplicates count, as in sluice
    rank = np.full(n, 1.0 / n)
    for _ in range(iterations):
        share = np.divide(rank, out_degree, out=np.zeros(n), where=out_degree > 0)
        pushed = a.T.copy().astype(np.float64) @ share if a.nnz else np.zeros(n)
        dangling = rank[out_degree == 0].sum()
        rank = (1 - damping) / n + damping * (pushed + dangling / n)
    return rank


def source_of(a: scipy.sparse.csr_matrix) -> int:
    return int(np.argmax(np.diff(a.indptr)))  # the programs' default: highest out-degree, smallest id


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("drives", [1, 2])
@pytest.mark.parametrize("engine", range(len(ENGINES)))
def test_bfs_wcc_spmv(layouts, shape, drives, engine):
    path, a = layouts[(shape, drives)]
    a = a.copy()  # scipy sums duplicates in place (astype): keep the fixture's
    options = ENGINES[engine]
    n = a.shape[0]
    if n == 0:
        with pytest.raises(sluice.UsageError, match="no vertices"):
            sluice.bfs(path, **options)
    else:
        source = source_of(a)
        r = sluice.bfs(path, **options)
        assert r.source == source
        expected = reference_bfs(a, source)
        np.testing.assert_array_equal(r.depth, expected)
        assert r.depth.dtype == r.parent.dtype == np.int64  # the kernel's int32 tree, widened
        assert r.reached == int((expected >= 0).sum())
        # Every parent is one level up and has the edge.
        for v in np.flatnonzero(expected > 0):
            p = r.parent[v]
            assert expected[p] == expected[v] - 1 and v in a.indices[a.indptr[p] : a.indptr[p + 1]]
        assert r.parent[source] == source
        assert sum(e["bytes_read"] for e in r.edgemaps) == r.bytes_read
    c = sluice.wcc(path, **options)
    np.testing.assert_array_equal(c.label, reference_components(a))
    assert c.components == len(set(c.label.tolist()))
    x = np.linspace(0.5, 2.0, n)
    np.testing.assert_allclose(sluice.spmv(path, x, **options).y, a.astype(np.float64) @ x, rtol=1e-12)
    np.testing.assert_allclose(sluice.spmv(path, x, transposed=True, **options).y, a.T.astype(np.float64) @ x, rtol=1e-12)


@pytest.mark.parametrize("shape", SHAPES)
def test_pagerank_and_jtcc(layouts, shape):
    path, a = layouts[(shape, 2)]
    a = a.copy()
    n = a.shape[0]
    if n == 0:
        assert sluice.pagerank(path).rank.size == 0
    else:
        r = sluice.pagerank(path, method="classic", dangling="spread", tolerance=1e-13, max_iterations=200)
        np.testing.assert_allclose(r.rank, reference_pagerank(a), atol=1e-10)
        assert abs(r.rank.sum() - 1) < 1e-9
        # Ligra's delta converges to classic (drop) as its thresholds shrink.
        delta = sluice.pagerank(path, threads=2, tolerance=1e-12, delta_threshold=1e-9, max_iterations=1000)
        classic = sluice.pagerank(path, method="classic", tolerance=1e-13, max_iterations=1000)
        np.testing.assert_allclose(delta.rank, classic.rank, atol=1e-6)
        # The automatic method: delta with room for its arrays; classic with spread ranks.
        assert (delta.method, classic.method, r.method) == ("delta", "classic", "classic")
        assert sluice.pagerank(path, dangling="spread", tolerance=1e-13, max_iterations=200).method == "classic"
        # Float shares (GAPBS's) round what each vertex sends: close, not equal.
        floats = sluice.pagerank(path, method="classic", tolerance=1e-8, max_iterations=1000, shares="float")
        assert floats.converged
        assert np.abs(floats.rank - classic.rank).sum() < 1e-6
        # The default, shares="auto", starts on floats and leaves them
        # before a tight tolerance: then as close as doubles alone.
        assert classic.float_share_iterations >= 1
        doubles = sluice.pagerank(path, method="classic", tolerance=1e-13, max_iterations=1000, shares="double")
        assert doubles.float_share_iterations == 0
        np.testing.assert_allclose(classic.rank, doubles.rank, atol=1e-12)
    j = sluice.jtcc(path)
    np.testing.assert_array_equal(j.label, reference_components(a))


@pytest.mark.parametrize("shape", ["rmat", "uniform", "star", "chain", "duplicates", "self_loops"])
def test_against_networkx(layouts, shape):
    path, a = layouts[(shape, 1)]
    a = a.copy()
    g = nx.from_scipy_sparse_array(a, create_using=nx.DiGraph)
    ranks = nx.pagerank(g, alpha=0.85, tol=1e-14, max_iter=1000, weight=None) if not _has_duplicates(a) else None
    if ranks is not None:
        r = sluice.pagerank(path, method="classic", dangling="spread", tolerance=1e-13, max_iterations=500)
        np.testing.assert_allclose(r.rank, [ranks[v] for v in range(a.shape[0])], atol=1e-9)
    labels = sluice.wcc(path).label
    for component in nx.weakly_connected_components(g):
        assert set(labels[list(component)].tolist()) == {min(component)}
    if not _has_duplicates(a) and not (a.diagonal() != 0).any():
        scores = nx.betweenness_centrality(g, normalized=False)
        b = sluice.bc(path, sources="all")
        np.testing.assert_allclose(b.score, [scores[v] for v in range(a.shape[0])], rtol=1e-9, atol=1e-9)
    source = source_of(a)
    lengths = nx.single_source_shortest_path_length(g, source)
    depth = sluice.bfs(path, source=source).depth
    assert {v: int(d) for v, d in enumerate(depth) if d >= 0} == lengths


def _has_duplicates(a) -> bool:
    return any(len(set(a.indices[a.indptr[v] : a.indptr[v + 1]].tolist())) != a.indptr[v + 1] - a.indptr[v] for v in range(a.shape[0]))


def reference_bc(a: scipy.sparse.csr_matrix, sources) -> np.ndarray:
    """Brandes's accumulation from each source, by the book."""
    n = a.shape[0]
    score = np.zeros(n)
    for s in sources:
        sigma = np.zeros(n)
        sigma[s] = 1
        depth = np.full(n, -1)
        depth[s] = 0
        order, queue = [], collections.deque([s])
        while queue:
            v = queue.popleft()
            order.append(v)
            for w in a.indices[a.indptr[v] : a.indptr[v + 1]]:
                if depth[w] < 0:
                    depth[w] = depth[v] + 1
                    queue.append(w)
                if depth[w] == depth[v] + 1:
                    sigma[w] += sigma[v]
        delta = np.zeros(n)
        for w in reversed(order):
            for v in a.indices[a.indptr[w] : a.indptr[w + 1]]:
                if depth[v] == depth[w] + 1:
                    delta[w] += sigma[w] / sigma[v] * (1 + delta[v])
            if w != s:
                score[w] += delta[w]
    return score


def test_bc_sources(layouts):
    path, a = layouts[("rmat", 2)]
    sources = [1, 5, 9]
    b = sluice.bc(path, sources=sources)
    assert b.sources == 3
    np.testing.assert_allclose(b.score, reference_bc(a, sources), rtol=1e-9, atol=1e-9)
    one = sluice.bc(path, sources=5)
    assert one.sources == 1
    np.testing.assert_allclose(one.score, reference_bc(a, [5]), rtol=1e-9, atol=1e-9)
    with pytest.raises(sluice.UsageError, match="sources was given an empty value"):
        sluice.bc(path, sources=[])


def test_spmv_refuses_nonfinite_x(layouts):
    path, a = layouts[("rmat", 2)]
    n = a.shape[0]
    for bad, what in ((np.nan, "nan"), (np.inf, "infinite"), (None, "nan")):
        x = [1.0] * n
        x[3] = bad
        with pytest.raises(sluice.InputError, match=rf"x\[3\]: x is {what}; x must hold finite numbers"):
            sluice.spmv(path, x)
    y = sluice.spmv(path, np.full(n, np.nan), allow_nonfinite=True).y
    assert np.isnan(y).any()


def read_values(path, dtype):
    return np.fromfile(path, dtype=dtype)


@pytest.mark.filterwarnings("ignore:sluice.pagerank. did not converge")  # the defaults' 20 iterations, as the program
def test_same_as_the_programs(layouts, programs, tmp_path):
    path, a = layouts[("rmat", 2)]
    out = tmp_path / "out.bin"
    common = ["--output", out, "--output-format", "binary", "--threads", "2"]

    run_program(programs, "sluice-bfs", path, "--source", 3, *common)
    np.testing.assert_array_equal(sluice.bfs(path, source=3, threads=2).depth, read_values(out, "<i8"))
    run_program(programs, "sluice-pagerank", path, "--method", "classic", *common)
    np.testing.assert_array_equal(sluice.pagerank(path, method="classic", threads=2).rank, read_values(out, "<f8"))
    run_program(programs, "sluice-pagerank", path, *common)
    np.testing.assert_allclose(sluice.pagerank(path, threads=2).rank, read_values(out, "<f8"), atol=1e-12)
    run_program(programs, "sluice-wcc", path, *common)
    np.testing.assert_array_equal(sluice.wcc(path, threads=2).label, read_values(out, "<u8"))
    run_program(programs, "sluice-jtcc", path, "--output", out, "--output-format", "binary")
    np.testing.assert_array_equal(sluice.jtcc(path).label, read_values(out, "<u8"))
    run_program(programs, "sluice-spmv", path, *common)
    np.testing.assert_allclose(sluice.spmv(path, threads=2).y, read_values(out, "<f8"), rtol=1e-12)
    run_program(programs, "sluice-bc", path, "--sources", "1,2", *common)
    np.testing.assert_allclose(sluice.bc(path, sources=[1, 2], threads=2).score, read_values(out, "<f8"), rtol=1e-12)
    run_program(programs, "sluice-sssp", path, "--delta", "2", *common)
    np.testing.assert_array_equal(sluice.sssp(path, delta=2, threads=2).distance, read_values(out, "<f8"))


@pytest.mark.parametrize("shape", SHAPES)
def test_sssp_and_kcore(layouts, shape, tmp_path):
    path, a = layouts[(shape, 2)]
    a = a.copy()
    n = a.shape[0]
    if n == 0:
        with pytest.raises(sluice.UsageError, match="no vertices"):
            sluice.sssp(path)
        return
    # Unweighted: distances are BFS depths, for every bucket width.
    source = source_of(a)
    depth = reference_bfs(a, source).astype(np.float64)
    depth[depth < 0] = np.inf
    for delta in (1.0, 2.5, float("inf")):
        r = sluice.sssp(path, delta=delta, threads=2)
        np.testing.assert_array_equal(r.distance, depth)
        assert r.source == source and r.reached == int(np.isfinite(depth).sum())
    # Weighted: Dijkstra's distances (scipy), duplicates keeping the least weight.
    rng = np.random.default_rng(7)
    w = a.tocoo()
    weights = rng.integers(1, 20, size=w.nnz).astype(np.float64)
    weighted = scipy.sparse.csr_matrix((weights, (w.row, w.col)), shape=a.shape)  # duplicates summed, like scipy's graphs
    layout = tmp_path / "w.sluice"
    sluice.from_scipy(weighted, layout, weighted=True)
    expected = scipy.sparse.csgraph.dijkstra(weighted, indices=source)
    for delta in (1.0, 7.0, float("inf")):
        np.testing.assert_allclose(sluice.sssp(layout, source=source, delta=delta).distance, expected, rtol=1e-6)
    # By default the buckets are as wide as the largest weight the layout records.
    r = sluice.sssp(layout, source=source)
    np.testing.assert_allclose(r.distance, expected, rtol=1e-6)
    if weighted.nnz:
        assert (r.delta, r.delta_from) == (weighted.data.max(), "the largest weight")
    # From every vertex: with positive weights every vertex stays at 0;
    # weights made negative on the edges from lower to higher ids (no
    # cycle among them) give the least distance from any vertex, which
    # scipy finds from a virtual source joined to every vertex; a negative
    # weight back makes a negative cycle.
    r = sluice.sssp(layout, from_every_vertex=True, delta=float("inf"))
    np.testing.assert_array_equal(r.distance, np.zeros(n))
    assert r.from_every_vertex and r.source is None and r.reached == n
    forward = w.row < w.col
    if forward.any():
        falling = scipy.sparse.csr_matrix((-weights[forward], (w.row[forward], w.col[forward])), shape=a.shape)
        dag = tmp_path / "dag.sluice"
        sluice.from_scipy(falling, dag, weighted=True)
        f = falling.tocoo()  # the virtual source n, joined by a weight scipy keeps (it drops explicit zeros)
        joined = scipy.sparse.csr_matrix((np.append(f.data, np.full(n, 1e-300)), (np.append(f.row, np.full(n, n)), np.append(f.col, np.arange(n)))),
                                         shape=(n + 1, n + 1))
        expected = scipy.sparse.csgraph.bellman_ford(joined, indices=n)[:n]
        np.testing.assert_allclose(sluice.sssp(dag, from_every_vertex=True, delta=float("inf")).distance, expected, rtol=1e-6, atol=1e-9)
        # Negative weights make the default Bellman-Ford.
        r = sluice.sssp(dag, from_every_vertex=True)
        np.testing.assert_allclose(r.distance, expected, rtol=1e-6, atol=1e-9)
        assert (r.delta, r.delta_from) == (float("inf"), "negative weights: Bellman-Ford")
        u, v = w.row[forward][0], w.col[forward][0]
        cycle = scipy.sparse.csr_matrix((np.append(-weights[forward], -1.0), (np.append(w.row[forward], v), np.append(w.col[forward], u))),
                                        shape=a.shape)
        cyclic = tmp_path / "cycle.sluice"
        sluice.from_scipy(cycle, cyclic, weighted=True)
        with pytest.raises(sluice.Error, match="the graph has a negative cycle"):
            sluice.sssp(cyclic, from_every_vertex=True, delta=float("inf"))
    with pytest.raises(sluice.UsageError, match="not both"):
        sluice.sssp(layout, source=source, from_every_vertex=True)
    # k-core of the simple undirected graph: networkx's core_number.
    g = nx.Graph(nx.from_scipy_sparse_array(a))
    g.remove_edges_from(nx.selfloop_edges(g))
    undirected = tmp_path / "u.sluice"
    sluice.from_networkx(g, undirected, nodelist=range(n))
    with pytest.raises(sluice.UsageError, match="undirected"):
        sluice.kcore(path)
    k = sluice.kcore(undirected, symmetric=True, threads=2)
    expected_core = nx.core_number(g)
    np.testing.assert_array_equal(k.core, [expected_core[v] for v in range(n)])
    assert k.largest == max(expected_core.values())


@pytest.mark.parametrize("shape", SHAPES)
def test_triangles_mis_and_radii(layouts, shape, tmp_path, programs):
    """Triangles and clustering against networkx, with every list held and
    with a budget that forces several ranges; MIS checked as networkx
    would check a maximal independent set; radii against BFS."""
    path, a = layouts[(shape, 2)]
    n = a.shape[0]
    g = nx.Graph(nx.from_scipy_sparse_array(a))  # self loops and repeated edges stay in the layout
    undirected = tmp_path / "u.sluice"
    doubled = nx.MultiGraph(g)
    doubled.add_edges_from(list(g.edges()))  # every edge twice: counted once
    sluice.from_networkx(doubled, undirected, nodelist=range(n))
    on_three = tmp_path / "u3.sluice"
    drives = [tmp_path / f"d{i}" for i in range(3)]
    for drive in drives:
        drive.mkdir()
    sluice.from_networkx(doubled, on_three, nodelist=range(n), drives=drives)
    with pytest.raises(sluice.UsageError, match="undirected"):
        sluice.tc(path)
    triangles = nx.triangles(g)
    clustering = nx.clustering(g)
    # Every list held, then a budget of 4 KiB (several ranges) through each
    # IO backend, on one drive and on three.
    runs = [(undirected, 0, "auto")] + [(layout, 4096, io) for layout in (undirected, on_three) for io in ("uring", "aio", "psync", "memory")]
    for layout, budget, io in runs:
        if n == 0:
            break
        r = sluice.tc(layout, list_memory=budget, threads=2, io=io)
        np.testing.assert_array_equal(r.triangles, [triangles[v] for v in range(n)])
        np.testing.assert_allclose(r.clustering, [clustering[v] for v in range(n)], rtol=1e-12, atol=0)
        assert r.total == sum(triangles.values()) // 3
        assert r.transitivity == pytest.approx(nx.transitivity(g), rel=1e-12)
        assert r.average_clustering == pytest.approx(nx.average_clustering(g), rel=1e-12)
        assert r.by_node()[n - 1] == triangles[n - 1]
        if budget == 4096 and n > 200:
            assert r.ranges > 1 and r.passes == r.ranges + 1
    if n == 0:
        return
    m = sluice.mis(undirected, seed=3, threads=2)
    members = {v for v in range(n) if m.member[v]}
    simple = nx.Graph(g)
    simple.remove_edges_from(nx.selfloop_edges(simple))
    assert all(not (u in members and v in members) for u, v in simple.edges())
    assert all(v in members or any(w in members for w in simple[v]) for v in range(n))
    assert m.members == len(members)
    np.testing.assert_array_equal(sluice.mis(undirected, seed=3, threads=1, io="memory").member, m.member)
    radii = sluice.radii(path, seed=5, threads=2)
    assert radii.sources == min(n, 64)
    if n <= 64:  # every vertex a source: the farthest distance reaching each vertex
        expected = np.full(n, -1)
        for s in range(n):
            depth = reference_bfs(a.tocsr(), s)
            expected = np.maximum(expected, depth)
        np.testing.assert_array_equal(radii.radius, expected)
    for program, layout, flags in (("radii", path, ["--seed", "5"]), ("tc", undirected, ["--list-memory", "4k"]), ("mis", undirected, [])):
        run_program(programs, f"sluice-{program}", layout, *flags, "-v")


def test_pagerank_says_when_it_did_not_converge(layouts):
    path, _ = layouts[("rmat", 1)]
    with pytest.warns(RuntimeWarning, match="did not converge: stopped at the cap of 3 iterations"):
        r = sluice.pagerank(path, method="classic", tolerance=1e-12, max_iterations=3)
    assert not r.converged and r.iterations == 3 and r.last_change >= 1e-12
    r = sluice.pagerank(path, method="classic", tolerance=1e-6, max_iterations=500)
    assert r.converged and r.last_change < 1e-6
    import warnings as w

    with w.catch_warnings():
        w.simplefilter("error")  # a tolerance of 0 asks for exactly the cap: no warning
        assert not sluice.pagerank(path, method="classic", tolerance=0, max_iterations=2).converged


def test_python_hints_signed_labels_and_rounded_weights(layouts, tmp_path):
    path, _ = layouts[("rmat", 1)]
    with pytest.raises(TypeError, match="unexpected keyword argument 'tolerence'; did you mean 'tolerance'"):
        sluice.pagerank(path, tolerence=1e-3)
    with pytest.raises(TypeError, match="did you mean 'delta'"):
        sluice.sssp(path, detla=2)
    components = sluice.wcc(path)
    assert components.label.dtype == np.int64 and (components.label - 1).min() == -1  # vertex 0's component
    assert sluice.jtcc(path).label.dtype == np.int64
    exact = scipy.sparse.csr_matrix(np.array([[0, 2.0], [0.5, 0]]))
    import warnings as w

    with w.catch_warnings():
        w.simplefilter("error")  # float64 weights that float32 holds exactly: no warning
        sluice.from_scipy(exact, tmp_path / "exact.sluice")
    rounded = scipy.sparse.csr_matrix(np.array([[0, 0.1], [0.5, 0]]))
    with pytest.warns(RuntimeWarning, match=r"weights are stored as float32: 1 of 2 changed, by up to 1.5e-08"):
        sluice.from_scipy(rounded, tmp_path / "rounded.sluice")


def test_stats_records(layouts):
    path, _ = layouts[("rmat", 1)]
    r = sluice.pagerank(path, method="classic", max_iterations=5, tolerance=0)
    assert r.iterations == 5 and len(r.edgemaps) == 5
    assert [e["iteration"] for e in r.edgemaps] == list(range(5))
    for e in r.edgemaps:
        assert {"phase", "direction", "bytes_read", "bytes_skipped", "seconds", "active_vertices"} <= set(e)
    assert r.skip_threshold and r.skip_threshold_source and r.backend and r.threads >= 1
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(r.edgemaps)
    assert len(frame) == 5 and frame["bytes_read"].sum() == r.bytes_read


def test_engine_options_reach_the_engine(layouts):
    path, _ = layouts[("rmat", 2)]
    r = sluice.bfs(path, io="psync", threads=1, skip_threshold="16k", direction="push")
    assert r.backend == "psync" and r.threads == 1
    assert r.skip_threshold == "16384" and r.skip_threshold_source == "--skip-threshold"
    assert all(e["direction"] == "push" for e in r.edgemaps)
    assert all(e["direction"] == "pull" for e in sluice.bfs(path, direction="pull").edgemaps)


def test_errors(layouts, tmp_path):
    path, _ = layouts[("rmat", 1)]
    with pytest.raises(TypeError, match="did you mean 'skip_threshold'"):
        sluice.bfs(path, skip_treshold="64k")
    with pytest.raises(sluice.UsageError, match="--direction: unknown direction 'sideways'"):
        sluice.bfs(path, direction="sideways")
    with pytest.raises(sluice.UsageError, match="--threads must not be negative"):
        sluice.wcc(path, threads=-1)
    with pytest.raises(sluice.UsageError, match="is not a size in bytes"):
        sluice.bfs(path, memory_limit="lots")
    with pytest.raises(sluice.UsageError, match="is not below the"):
        sluice.bfs(path, source=10**6)
    # An out-of-range or mistyped source is an error, never the default one.
    for bad in (-5, 2**63, 2**64, 1.5, "3", True):
        with pytest.raises(sluice.UsageError, match="source"):
            sluice.bfs(path, source=bad)
    with pytest.raises(sluice.UsageError, match="source -5 is not a vertex id"):
        sluice.bc(path, sources=[0, -5])
    with pytest.raises(sluice.UsageError, match="--threads 100000 is more than the .* threads"):
        sluice.bfs(path, threads=100000)
    fifo = tmp_path / "fifo.sluice"
    os.mkfifo(fifo)
    with pytest.raises(sluice.InputError, match="is a FIFO"):
        sluice.bfs(fifo)
    with pytest.raises(ValueError, match="unknown PageRank method|method"):
        sluice.pagerank(path, method="fast")
    with pytest.raises(ValueError, match="unknown share type 'half' for --shares"):
        sluice.pagerank(path, shares="half")
    with pytest.raises(ValueError, match="x has 3 values"):
        sluice.spmv(path, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="x has 0 values"):
        sluice.spmv(path, [])
    with pytest.raises(sluice.InputError, match="cannot open|No such file"):
        sluice.bfs(tmp_path / "missing.sluice")
    with pytest.raises(sluice.Error, match="memory"):
        sluice.bfs(path, memory_limit=4096)
    a = scipy.sparse.csr_matrix(np.eye(3, dtype=np.float32))
    sluice.from_scipy(a, tmp_path / "no-transpose.sluice")
    with pytest.raises(sluice.InputError, match="wcc needs the transpose"):
        sluice.wcc(tmp_path / "no-transpose.sluice")
    assert sluice.wcc(tmp_path / "no-transpose.sluice", symmetric=True).components == 3
    el = tmp_path / "g.el"
    el.write_text("0 1\n")
    with pytest.raises(sluice.InputError, match="not a sluice layout"):
        sluice.bfs(el)
    with sluice.open(el) as g, pytest.raises(sluice.UsageError, match="run on a sluice layout"):
        sluice.wcc(g)


def test_runs_leave_no_threads(layouts):
    path, _ = layouts[("rmat", 2)]
    sluice.wcc(path, threads=2)  # the runtimes' own pools start once
    before = threads_now()
    for io in ("uring", "aio", "psync", "memory"):
        sluice.bfs(path, io=io, threads=2)
        sluice.pagerank(path, io=io, threads=2)
        sluice.jtcc(path, threads=2)
    assert threads_after(before) <= before


def test_symmetry_is_recorded_and_checked(tmp_path):
    """--symmetrize is recorded, so wcc needs neither a transpose nor a flag;
    symmetric=True on a directed layout is refused, not believed (it gave
    wrong component counts)."""
    src = tmp_path / "g.el"
    src.write_text("0 1\n1 2\n2 0\n3 4\n")
    sluice.convert(src, tmp_path / "sym.sluice", symmetrize=True)
    assert sluice.wcc(tmp_path / "sym.sluice").components == 2
    sluice.convert(src, tmp_path / "directed.sluice")
    with pytest.raises(sluice.UsageError, match="does not store every edge both ways"):
        sluice.wcc(tmp_path / "directed.sluice", symmetric=True)
    with pytest.raises(sluice.InputError, match="wcc needs the transpose"):
        sluice.wcc(tmp_path / "directed.sluice")
