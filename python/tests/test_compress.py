"""compress=True (issue 22): gap-coded edge pages, written from Python,
give the same BFS depths, WCC labels and PageRank as plain pages, from the
drives and in memory, in fewer bytes."""
from __future__ import annotations

import numpy as np

import sluice


def test_compressed_pages_give_the_plain_results(tmp_path):
    sluice.generate("rmat", tmp_path / "g.el", scale=12)
    plain, packed = tmp_path / "plain.sluice", tmp_path / "packed.sluice"
    sluice.convert(tmp_path / "g.el", plain, transpose=True)
    sluice.convert(tmp_path / "g.el", packed, transpose=True, compress=True)
    size = lambda layout: sum(p.stat().st_size for p in tmp_path.glob(layout.stem + ".out.*") if not p.name.endswith("index"))
    assert size(packed) < 0.6 * size(plain)
    expected = sluice.bfs(plain, source=0)
    for io in ("auto", "memory"):
        got = sluice.bfs(packed, source=0, io=io)
        np.testing.assert_array_equal(got.depth, expected.depth)
        np.testing.assert_array_equal(sluice.wcc(packed, io=io).label, sluice.wcc(plain).label)
        ranks = sluice.pagerank(packed, io=io, tolerance=1e-12).rank
        assert np.abs(ranks - sluice.pagerank(plain, tolerance=1e-12).rank).sum() <= 1e-12
