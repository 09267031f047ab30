"""sluice.open over every format through the block API: counts, offsets,
edges, blocks and to_scipy against the matrix written; errors; and no
file handle or thread left once a graph is closed or collected."""
from __future__ import annotations

import gc
import gzip

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph

import sluice
from conftest import SHARED_DATA, fds_now, matrix, rmat_edges, threads_after, threads_now

WRITABLE = ["el", "wel", "mtx", "adj", "bel", "bel64", "sluice", "blaze"]


def same_graph(g: sluice.Graph, a: scipy.sparse.csr_matrix, weighted: bool) -> None:
    assert g.vertices == a.shape[0] and g.edges == a.nnz
    np.testing.assert_array_equal(g.offsets(), a.indptr)
    targets, weights = g.edges()
    np.testing.assert_array_equal(targets, a.indices)
    if weighted:
        np.testing.assert_array_equal(weights, a.data)
    m = g.to_scipy()
    expected = a if weighted else scipy.sparse.csr_matrix((np.ones(a.nnz, np.float32), a.indices, a.indptr), shape=a.shape)
    assert m.shape == a.shape and (m != expected).nnz == 0


@pytest.fixture(scope="module")
def weighted_graph():
    s, d = rmat_edges(8, 6, 11)
    w = np.random.default_rng(1).integers(1, 100, len(s)).astype(np.float32)
    a = matrix(256, s, d, w)
    a.sort_indices()  # adjacency text keeps list order; sorted lists compare everywhere
    return a


@pytest.mark.parametrize("fmt", WRITABLE)
def test_every_format(tmp_path, weighted_graph, fmt):
    a = weighted_graph
    weighted = fmt in ("el", "wel", "mtx", "sluice")
    name = {"sluice": "g.sluice", "blaze": "g.gr.index"}.get(fmt, f"g.{fmt}")
    # Plain pages keep each list's order (compressed ones, the default,
    # sort it: test_compressed_layout).
    sluice.from_scipy(a, tmp_path / name, weighted=weighted, **({"compress": False} if fmt == "sluice" else {}))
    # Binary edge lists do not store the vertex count (trailing isolated
    # vertices): it is told.
    told = {"vertices": a.shape[0]} if fmt in ("bel", "bel64") else {}
    with sluice.open(tmp_path / name, **told) as g:
        assert g.format == fmt and g.weighted == weighted
        same_graph(g, a, weighted)


@pytest.mark.parametrize("weighted", [True, False])
def test_compressed_layout(tmp_path, weighted_graph, weighted):
    # Gap-coded pages, the weights beside the gaps: the same graph back
    # (each list sorted, as the fixture's are), and SSSP's distances as on
    # plain pages.
    a = weighted_graph
    sluice.from_scipy(a, tmp_path / "c.sluice", weighted=weighted, compress=True, transpose=True)
    sluice.from_scipy(a, tmp_path / "p.sluice", weighted=weighted, compress=False, transpose=True)
    # Repeated targets come by weight (positive here: their bits' order).
    stored = a.copy()
    for v in range(a.shape[0]):
        row = slice(a.indptr[v], a.indptr[v + 1])
        order = np.lexsort((a.data[row], a.indices[row]))
        stored.indices[row], stored.data[row] = a.indices[row][order], a.data[row][order]
    with sluice.open(tmp_path / "c.sluice") as g:
        same_graph(g, stored, weighted)
    assert "compression gap-vbyte" in (tmp_path / "c.sluice").read_text()
    plain = sluice.sssp(tmp_path / "p.sluice", source=0)
    packed = sluice.sssp(tmp_path / "c.sluice", source=0)
    np.testing.assert_array_equal(plain.distance, packed.distance)
    assert "compression" not in (tmp_path / "p.sluice").read_text()
    with pytest.raises(sluice.UsageError, match="compress=True applies to sluice's layout only"):
        sluice.from_scipy(a, tmp_path / "c.el", compress=True)
    with pytest.raises(sluice.UsageError, match="compress=False applies to sluice's layout only"):
        sluice.from_scipy(a, tmp_path / "c.el", compress=False)


def test_compressed_text(tmp_path, weighted_graph):
    a = weighted_graph
    sluice.from_scipy(a, tmp_path / "g.el", weighted=False)
    (tmp_path / "g.el.gz").write_bytes(gzip.compress((tmp_path / "g.el").read_bytes()))
    with sluice.open(tmp_path / "g.el.gz") as g:
        same_graph(g, a, weighted=False)


def test_open_options(tmp_path):
    (tmp_path / "one.txt").write_text("# SNAP-style, 1-based\n1 2\n2 3\n3 3\n")
    with pytest.raises(sluice.InputError, match="--base 1"):
        sluice.open(tmp_path / "one.txt", format="el", vertices=3)
    with sluice.open(tmp_path / "one.txt", format="el", base=1, symmetrize=True, drop_self_loops=True) as g:
        assert g.vertices == 3 and g.edges == 4
        np.testing.assert_array_equal(g.to_scipy().toarray(), [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    with sluice.open(tmp_path / "one.txt", format="el", base=1, wide_ids=True) as g:
        assert g.id_bytes == 8 and g.edges().__class__ is tuple and g.edges()[0].dtype == np.uint64


def test_webgraph_from_shared_data():
    basename = SHARED_DATA / "rmat14-bv" / "rmat14"
    if not basename.with_suffix(".graph").exists():
        pytest.skip(f"{basename}.graph is not here")
    reference = gzip.decompress(basename.with_suffix(".graph-txt.gz").read_bytes()).decode().split("\n")
    with sluice.open(f"{basename}.graph") as g:
        assert g.format == "bv" and g.vertices == int(reference[0]) == 16384 and g.edges == 120019
        offsets = g.offsets()
        targets, _ = g.edges()
        for v in (0, 1, 777, 16383):
            expected = [int(t) for t in reference[v + 1].split()]
            assert targets[offsets[v] : offsets[v + 1]].tolist() == expected
        assert sum(b.targets.size for b in g.blocks()) == 120019


def test_blocks(tmp_path, weighted_graph):
    a = weighted_graph
    sluice.from_scipy(a, tmp_path / "g.wel")
    with sluice.open(tmp_path / "g.wel", block_edges=100, buffers=3, threads=2) as g:
        blocks = list(g.blocks())
        assert len(blocks) > 10
        assert blocks[0].begin == 0 and blocks[-1].end == g.vertices
        for before, after in zip(blocks, blocks[1:]):
            assert before.end == after.begin
        np.testing.assert_array_equal(np.concatenate([b.targets for b in blocks]), a.indices)
        np.testing.assert_array_equal(np.concatenate([b.weights for b in blocks]), a.data)
        for b in blocks:  # each block's arrays are its own, still valid
            assert b.offsets[-1] - b.offsets[0] == b.targets.size
        part = list(g.blocks(10, 20))
        assert part[0].begin == 10 and part[-1].end == 20
        assert list(g.blocks(5, 5)) == []


def test_empty_graph(tmp_path):
    sluice.from_scipy(scipy.sparse.csr_matrix((0, 0), dtype=np.float32), tmp_path / "e.bel")
    with sluice.open(tmp_path / "e.bel") as g:
        assert g.vertices == 0 and g.edges == 0
        assert g.offsets().tolist() == [0] and g.edges()[0].size == 0
        assert list(g.blocks()) == [] and g.to_scipy().shape == (0, 0)


def test_errors(tmp_path):
    with pytest.raises(sluice.InputError, match="missing.el"):
        sluice.open(tmp_path / "missing.el")
    (tmp_path / "bad.el").write_text("0 1\n1 x\n")
    with pytest.raises(sluice.InputError, match=r"bad.el:line 2"):
        sluice.open(tmp_path / "bad.el")
    with pytest.raises(TypeError, match="did you mean 'symmetrize'"):
        sluice.open(tmp_path / "bad.el", symetrize=True)
    with pytest.raises(sluice.UsageError, match="--base must be 0, 1 or auto"):
        sluice.open(tmp_path / "bad.el", base=2)
    (tmp_path / "g.el").write_text("0 1\n")
    g = sluice.open(tmp_path / "g.el")
    with pytest.raises(IndexError, match="not within the 2 vertices"):
        g.offsets(0, 3)
    with pytest.raises(IndexError):
        g.blocks(1, 0).__next__()
    with pytest.raises(IndexError, match=r"vertices \[-1, 5\) are not within the 2 vertices"):
        g.offsets(-1, 5)
    with pytest.raises(IndexError, match="not within the 2 vertices"):
        g.edges(0, 10**20)
    with pytest.raises(IndexError, match="not within the 2 vertices"):
        g.read_edges(-3)
    with pytest.raises(TypeError, match="begin must be a vertex number"):
        g.offsets(0.5, 1)
    g.close()
    assert g.closed and "closed" in repr(g)
    with pytest.raises(ValueError, match="is closed"):
        g.vertices
    g.close()  # twice is fine


def test_nothing_left_after_close_or_collection(tmp_path, weighted_graph):
    sluice.from_scipy(weighted_graph, tmp_path / "g.wel")
    path = tmp_path / "g.wel"

    def use(close: bool, stop_early: bool) -> None:
        g = sluice.open(path, block_edges=64, buffers=2, threads=2)
        blocks = g.blocks()
        next(blocks)
        if not stop_early:
            for _ in blocks:
                pass
        if close:
            g.close()
        del blocks, g
        gc.collect()

    use(True, False)  # the first call starts the runtimes' own pools (OpenMP)
    threads, fds = threads_now(), fds_now()
    for close in (True, False):
        for stop_early in (True, False):
            use(close, stop_early)
            assert threads_after(threads) <= threads and fds_now() == fds
    # An open graph's handles are released by close().
    g = sluice.open(path)
    list(g.blocks())
    g.close()
    assert threads_after(threads) <= threads and fds_now() == fds
    # Closing with an iteration in progress stops it.
    g = sluice.open(path, block_edges=64, buffers=2)
    blocks = g.blocks()
    next(blocks)
    g.close()
    with pytest.raises((StopIteration, ValueError)):
        next(blocks)
    del blocks
    assert threads_after(threads) <= threads and fds_now() == fds


def test_real_graph_from_shared_data(tmp_path):
    base = SHARED_DATA / "cnr-2000" / "cnr-2000"
    if not base.with_suffix(".graph").exists():
        pytest.skip(f"{base}.graph is not here")
    with sluice.open(f"{base}.graph") as g:
        assert (g.vertices, g.edges) == (325557, 3216152)
        a = g.to_scipy()
        # One weak component (the data's README), by union-find in one pass.
        assert sluice.jtcc(g).components == 1
    (tmp_path / "d0").mkdir()
    (tmp_path / "d1").mkdir()
    sluice.convert(f"{base}.graph", tmp_path / "cnr.sluice", drives=[tmp_path / "d0", tmp_path / "d1"], transpose=True)
    assert sluice.wcc(tmp_path / "cnr.sluice").components == 1
    depth = sluice.bfs(tmp_path / "cnr.sluice", source=0).depth
    expected = scipy.sparse.csgraph.shortest_path(a, unweighted=True, indices=0)
    np.testing.assert_array_equal(depth, np.where(np.isinf(expected), -1, expected).astype(np.int64))


def test_damaged_drive_file(tmp_path, weighted_graph):
    """A flipped bit in a drive file is an error naming the file, from the
    block API and from the engine, never a wrong answer."""
    (tmp_path / "d0").mkdir()
    sluice.from_scipy(weighted_graph, tmp_path / "g.sluice", drives=[tmp_path / "d0"], weighted=False)
    drive_file = next((tmp_path / "d0").iterdir())
    data = bytearray(drive_file.read_bytes())
    data[len(data) // 2] ^= 0x10
    drive_file.write_bytes(bytes(data))
    with sluice.open(tmp_path / "g.sluice", block_edges=64) as g:
        with pytest.raises(sluice.Error, match="fails its checksum"):
            for _ in g.blocks():
                pass
        with pytest.raises(sluice.Error, match="fails its checksum"):
            g.read_edges()
    with pytest.raises(sluice.Error, match=f"{drive_file.name}.*fails its checksum"):
        sluice.pagerank(tmp_path / "g.sluice", method="classic", io="psync")
