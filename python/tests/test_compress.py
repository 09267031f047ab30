"""Gap-coded edge pages, the default (compress=False asks for plain ones),
written from Python, give the same BFS depths, WCC labels and PageRank as
plain pages, from the drives and in memory, in fewer bytes."""
from __future__ import annotations

import numpy as np

import sluice


def test_compressed_pages_give_the_plain_results(tmp_path):
    sluice.generate("rmat", tmp_path / "g.el", scale=12)
    plain, packed = tmp_path / "plain.sluice", tmp_path / "packed.sluice"
    sluice.convert(tmp_path / "g.el", plain, transpose=True, compress=False)
    sluice.convert(tmp_path / "g.el", packed, transpose=True)
    assert "compression gap-vbyte" in packed.read_text() and "compression" not in plain.read_text()
    size = lambda layout: sum(p.stat().st_size for p in tmp_path.glob(layout.stem + ".out.*") if not p.name.endswith("index"))
    assert size(packed) < 0.6 * size(plain)
    expected = sluice.bfs(plain, source=0)
    for io in ("auto", "memory"):
        got = sluice.bfs(packed, source=0, io=io)
        np.testing.assert_array_equal(got.depth, expected.depth)
        np.testing.assert_array_equal(sluice.wcc(packed, io=io).label, sluice.wcc(plain).label)
        ranks = sluice.pagerank(packed, io=io, tolerance=1e-12).rank
        assert np.abs(ranks - sluice.pagerank(plain, tolerance=1e-12).rank).sum() <= 1e-12


def test_sample_files_serve_wcc_and_can_be_left_out(tmp_path):
    """sample_edges (each vertex's first targets beside the index, 2 by
    default): WCC's labels are the same without them, which it then reads
    from the pages."""
    sluice.generate("rmat", tmp_path / "g.el", scale=12)
    sampled, bare = tmp_path / "sampled.sluice", tmp_path / "bare.sluice"
    sluice.convert(tmp_path / "g.el", sampled, transpose=True)
    sluice.convert(tmp_path / "g.el", bare, transpose=True, sample_edges=0)
    assert (tmp_path / "sampled.out.sample").exists() and (tmp_path / "sampled.in.sample").exists()
    assert not list(tmp_path.glob("bare.*.sample"))
    with_sample, without = sluice.wcc(sampled), sluice.wcc(bare)
    np.testing.assert_array_equal(with_sample.label, without.label)
    assert with_sample.bytes_read < without.bytes_read


def test_generate_writes_the_default_pages_and_plain_ones(tmp_path):
    sluice.generate("rmat", tmp_path / "c.sluice", scale=10, transpose=True)
    sluice.generate("rmat", tmp_path / "p.sluice", scale=10, transpose=True, compress=False)
    assert "compression gap-vbyte" in (tmp_path / "c.sluice").read_text()
    assert "compression" not in (tmp_path / "p.sluice").read_text()
    np.testing.assert_array_equal(sluice.wcc(tmp_path / "c.sluice").label, sluice.wcc(tmp_path / "p.sluice").label)
