"""Graphs of any format sluice reads, through the block API."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Optional, Union

import numpy as np

from . import _core
from ._flags import OPEN_OPTIONS, check_names, to_flags

if TYPE_CHECKING:
    import scipy.sparse

PathLike = Union[str, "os.PathLike[str]"]


class Block(NamedTuple):
    """The edges of vertices [begin, end): CSR slices the caller owns."""

    begin: int
    end: int
    offsets: np.ndarray  # uint64, end - begin + 1 global edge offsets
    targets: np.ndarray  # uint32 or uint64
    weights: Optional[np.ndarray]  # float32, None when unweighted


class EdgeCount(int):
    """``g.edges``: the number of edges, an int; called, ``g.edges(begin, end)``
    reads the edges of vertices [begin, end) (networkx's ``G.edges`` is
    likewise both a size and a call)."""

    _graph: "Graph"

    def __new__(cls, count: int, graph: "Graph") -> "EdgeCount":
        self = super().__new__(cls, count)
        self._graph = graph
        return self

    def __call__(self, begin: int = 0, end: Optional[int] = None) -> tuple[np.ndarray, Optional[np.ndarray]]:
        return self._graph.read_edges(begin, end)

    def __repr__(self) -> str:
        return int.__repr__(self)


class Graph:
    """A graph opened with :func:`open`.

    Use it as a context manager, or call :meth:`close`: closing stops any
    block iteration in progress and joins the library's threads.
    """

    def __init__(self, path: PathLike, **options: Any) -> None:
        check_names("open", options, OPEN_OPTIONS)
        self._path = os.fspath(path)
        self._handle = _core.Graph(self._path, to_flags(options))

    @property
    def path(self) -> str:
        return self._path

    @property
    def vertices(self) -> int:
        """The number of vertices (ids are 0 .. vertices - 1)."""
        return self._handle.vertices

    @property
    def edges(self) -> EdgeCount:
        """The number of edges; ``g.edges(begin, end)`` reads them (see read_edges)."""
        return EdgeCount(self._handle.edges_count, self)

    @property
    def weighted(self) -> bool:
        return self._handle.weighted

    @property
    def symmetric(self) -> bool:
        """Whether the graph is known to store every edge both ways (a
        layout that records it, a symmetric Matrix Market file): undirected."""
        return self._handle.symmetric

    # networkx dispatches its functions on a layout to the sluice backend
    # (sluice.networkx_backend), which runs them where the layout lies.
    __networkx_backend__ = "sluice"

    def is_directed(self) -> bool:
        """As networkx asks: a graph not known to be symmetric is directed."""
        return not self.symmetric

    def is_multigraph(self) -> bool:
        """As networkx asks: parallel edges, where a file holds them, count as
        sluice's programs count them."""
        return False

    @property
    def format(self) -> str:
        """The format read: el, wel, mtx, adj, bel, bel64, sluice, blaze or bv."""
        return self._handle.format

    @property
    def relabelled(self) -> bool:
        """Whether the ids were relabelled densely from 0 (``relabel=True``
        when converting or opening): then :attr:`ids` maps them back."""
        return self._handle.relabelled

    @property
    def ids(self) -> np.ndarray:
        """Each vertex's id in the input (uint64): ``ids[v]`` for vertex v of
        this graph; 0 .. vertices - 1 unless the graph was relabelled."""
        return self._handle.ids

    @property
    def id_bytes(self) -> int:
        """4 or 8: the width of the vertex ids edges() and blocks() return."""
        return self._handle.id_bytes

    @property
    def closed(self) -> bool:
        return self._handle.closed

    def _range(self, begin: Any, end: Any) -> tuple[int, int]:
        """[begin, end) as vertex numbers, or IndexError (TypeError for what
        is not an integer), before the library sees them."""
        n = self.vertices
        end = n if end is None else end
        for name, value in (("begin", begin), ("end", end)):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{name} must be a vertex number (an integer), not {value!r}")
        if not 0 <= int(begin) <= int(end) <= n:
            raise IndexError(f"vertices [{int(begin)}, {int(end)}) are not within the {n} vertices")
        return int(begin), int(end)

    def offsets(self, begin: int = 0, end: Optional[int] = None) -> np.ndarray:
        """CSR offsets (uint64) of vertices begin .. end, end - begin + 1 of them."""
        return self._handle.offsets(*self._range(begin, end))

    def read_edges(self, begin: int = 0, end: Optional[int] = None) -> tuple[np.ndarray, Optional[np.ndarray]]:
        """(targets, weights) of the edges of vertices [begin, end), in CSR order.

        targets is uint32 or uint64 (id_bytes); weights is float32, or None
        when the graph is unweighted.
        """
        return self._handle.edges(*self._range(begin, end))

    def blocks(self, begin: int = 0, end: Optional[int] = None) -> Iterator[Block]:
        """The edges of [begin, end) block by block, in vertex order.

        The library's threads read and decode blocks in parallel (block_edges
        edges each, an option of open); each block's arrays are the caller's.
        """
        iterator = self._handle.blocks(*self._range(begin, end))
        try:
            for block in iterator:
                yield Block(**block)
        finally:
            iterator.close()

    def to_scipy(self, dtype: Any = None) -> "scipy.sparse.csr_matrix":
        """The adjacency matrix as a scipy CSR matrix (A[i, j]: edge i -> j).

        The edge ids become the matrix's indices without a copy when both
        fit 32 bits (or the ids are 64-bit); data is the weights (float32),
        or ones of ``dtype`` (default float32) when unweighted.
        """
        import scipy.sparse

        n = self.vertices
        offsets = self.offsets()
        targets, weights = self.read_edges()
        if self.edges < 2**31 and n < 2**31:
            indptr = offsets.astype(np.int32)
            indices = targets.view(np.int32) if targets.dtype == np.uint32 else targets.astype(np.int32)
        else:
            indptr = offsets.view(np.int64)
            indices = targets.view(np.int64) if targets.dtype == np.uint64 else targets.astype(np.int64)
        if weights is None:
            data = np.ones(len(indices), dtype=dtype or np.float32)
        else:
            data = weights if dtype is None else weights.astype(dtype, copy=False)
        return scipy.sparse.csr_matrix((data, indices, indptr), shape=(n, n), copy=False)

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "Graph":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if getattr(self, "_handle", None) is None or self.closed:
            return f"<sluice.Graph {self._path!r} (closed)>"
        weighted = ", weighted" if self.weighted else ""
        return f"<sluice.Graph {self._path!r}: {self.format}, {self.vertices} vertices, {self.edges} edges{weighted}>"


def open(path: PathLike, **options: Any) -> Graph:  # noqa: A001 (sluice.open, as the issue's API names it)
    """Opens a graph of any format sluice reads.

    The format is told from the name or the first bytes (``format=`` to
    say it): el, wel, mtx, adj, bel, bel64, a sluice layout (.sluice), a
    Blaze layout (.gr.index), WebGraph BV (the basename); gzip or zstd
    compressed text too. Options are ``sluice convert``'s read options as
    keywords: threads, base (0, 1, "auto"), vertices, wide_ids,
    block_edges, buffers, adjacency_dirs (Blaze), save_offsets (BV), and
    the rebuilds symmetrize, drop_self_loops, dedup, sort, drop_weights,
    relabel (keep the ids that appear, dense from 0: ``g.ids`` maps them
    back) and reorder ("degree": busiest vertices first; "none").
    """
    return Graph(path, **options)
