"""Graphs into sluice: convert files, generate graphs, write arrays from
scipy or networkx. Every writer is atomic (a failed call leaves nothing
behind) and refuses to overwrite another layout's drive files unless
force=True."""
from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING, Any, Hashable, Optional, Sequence

import numpy as np

from . import _core
from ._flags import OPEN_OPTIONS, check_names, to_flags
from .graph import PathLike

if TYPE_CHECKING:
    import networkx
    import scipy.sparse

_WRITE_OPTIONS = ("to", "drives", "transpose", "compress", "sample_edges", "force", "threads")
_ARRAY_OPTIONS = ("to", "drives", "transpose", "compress", "force", "threads", "symmetric")


def convert(src: PathLike, dst: PathLike, **options: Any) -> str:
    """``sluice convert SRC DST`` in process, with its options as keywords:
    to (the output format; default from DST's extension), drives (a list of
    directories, one per drive: sluice and Blaze layouts), transpose,
    compress (True, the default for a sluice layout: gap-coded edge pages,
    weights beside the gaps, fewer bytes to read; False: plain pages of
    fixed records), sample_edges (each vertex's first targets kept
    beside the index for WCC's sampling; 2 by default, 0 for none), force,
    and the read and rebuild options of
    :func:`sluice.open`.
    Errors raise with the command line's messages. Returns the command's
    summary line ("converted el -> sluice: N vertices, M edges in S s -> DST")."""
    check_names("convert", options, _WRITE_OPTIONS + OPEN_OPTIONS)
    return _core.convert([os.fspath(src), os.fspath(dst)] + to_flags(options))


_GENERATE_OPTIONS = (
    "scale",
    "edge_factor",
    "seed",
    "a",
    "b",
    "c",
    "no_permute",
    "weighted",
    "threads",
    "to",
    "drives",
    "transpose",
    "compress",
    "force",
    "symmetrize",
    "drop_self_loops",
    "dedup",
    "sort",
)


def generate(kind: str, output: PathLike, **options: Any) -> str:
    """``sluice generate KIND -o OUTPUT``: an RMAT (Graph500) or uniform
    random graph, 2**scale vertices and edge_factor edges per vertex; the
    same seed gives the same graph. Options: scale, edge_factor, seed, a, b,
    c, no_permute, weighted, threads, to, drives, transpose, compress (a
    sluice layout's pages: gap-coded by default, plain with False), force,
    symmetrize, drop_self_loops, dedup, sort. Returns the command's summary
    line."""
    check_names("generate", options, _GENERATE_OPTIONS)
    return _core.generate([kind, "--output", os.fspath(output)] + to_flags(options))


def from_arrays(
    indptr: Any, indices: Any, path: PathLike, weights: Any = None, vertices: Optional[int] = None, **options: Any
) -> None:
    """Writes the graph whose CSR is (indptr, indices[, weights]) to
    ``path`` in any format sluice writes (a layout with drives=[...]).
    Vertex v's edges go to indices[indptr[v]:indptr[v + 1]]. The arrays are
    read in place when they are uint64 / uint32-or-uint64 / float32 and
    contiguous. Options: to, drives, transpose, compress (gap-coded edge
    pages, the default for a sluice layout; False: plain pages, as
    ``sluice convert --plain``), force, threads, and
    symmetric=True when every edge is stored both ways (an undirected
    graph): a layout records it, and the algorithms then need no transpose."""
    check_names("from_arrays", options, _ARRAY_OPTIONS)
    indptr = np.asarray(indptr)
    indices = np.asarray(indices)
    if indptr.ndim != 1 or indices.ndim != 1:
        raise _core.UsageError("indptr and indices must be vectors")
    if len(indptr) == 0:
        raise _core.UsageError("indptr needs at least one offset (vertices + 1 of them)")
    n = len(indptr) - 1 if vertices is None else int(vertices)
    for name, array in (("indptr", indptr), ("indices", indices)):
        if array.size and array.dtype.kind not in "iu":
            raise _core.UsageError(f"{name} must hold integers, not {array.dtype}")
        if array.size and array.dtype.kind == "i" and array.min() < 0:
            raise _core.InputError(f"the arrays: {name}: negative value {array.min()}")
    offsets = np.ascontiguousarray(indptr, dtype=np.uint64)
    narrow = n <= 2**32
    ids = np.ascontiguousarray(indices, dtype=np.uint32 if narrow else np.uint64)
    if narrow and indices.size and indices.max() >= 2**32:
        raise _core.InputError(f"the arrays: indices: vertex id {indices.max()} is not below the {n} vertices")
    w = None
    if weights is not None:
        given = _real_weights(weights)
        w = np.ascontiguousarray(given, dtype=np.float32)
        _warn_if_rounded(given, w)
    write = _core.write_arrays32 if narrow else _core.write_arrays64
    write(offsets, ids, w, n, os.fspath(path), to_flags(options))


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _real_weights(weights: Any) -> np.ndarray:
    """The weights as given, refused as the converter refuses them: each a
    finite number within float32's range (a cast would store nan, inf, or
    inf for a larger magnitude, and only warn)."""
    given = np.asarray(weights)
    if given.dtype.kind not in "biuf":
        try:
            given = np.asarray(weights, dtype=np.float64)  # None becomes nan: refused below
        except (TypeError, ValueError) as e:
            raise _core.UsageError(f"weights must hold numbers, not {given.dtype}: {e}") from None
    if given.dtype.kind != "f":  # integers and booleans are all within float32's range
        return given
    wide = given.astype(np.float64, copy=False).ravel()
    finite = np.isfinite(wide)
    bad = ~finite
    bad[finite] = np.abs(wide[finite]) > _FLOAT32_MAX
    if bad.any():
        at = int(np.argmax(bad))
        why = (
            "the weight is nan or infinite; weights must be finite numbers"
            if not finite[at]
            else "the weight is beyond float32's range (magnitude at most 3.4e38)"
        )
        raise _core.InputError(f"the arrays: weights[{at}]: {why} (found {wide[at]!r}); nothing was written")
    return given


def _warn_if_rounded(given: np.ndarray, stored: np.ndarray) -> None:
    """Layouts store weights as float32: say so when that changes a value."""
    if given.dtype.kind != "f" or given.dtype.itemsize <= 4 or not given.size:
        return
    wide = given.astype(np.float64, copy=False)
    changed = stored.astype(np.float64) != wide
    if changed.any():
        scale = np.maximum(np.abs(wide[changed]), np.finfo(np.float64).tiny)
        worst = float(np.max(np.abs(stored[changed].astype(np.float64) - wide[changed]) / scale))
        warnings.warn(
            f"weights are stored as float32: {int(changed.sum())} of {given.size} changed, by up to {worst:.2g} "
            "of their value",
            RuntimeWarning,
            stacklevel=3,
        )


def from_scipy(matrix: "scipy.sparse.spmatrix", path: PathLike, weighted: Optional[bool] = None, **options: Any) -> None:
    """Writes a square scipy sparse matrix as a graph: edge i -> j for each
    stored A[i, j], weighted by its value unless weighted=False (default:
    weighted unless every value is 1). Options as :func:`from_arrays`."""
    import scipy.sparse

    if not scipy.sparse.issparse(matrix):
        raise _core.UsageError(f"expected a scipy sparse matrix, not {type(matrix).__name__}")
    if matrix.shape[0] != matrix.shape[1]:
        raise _core.UsageError(f"a graph's adjacency matrix is square; this one is {matrix.shape[0]} x {matrix.shape[1]}")
    csr = matrix.tocsr()
    if weighted is None:
        weighted = bool(csr.data.size) and not np.all(csr.data == 1)
    from_arrays(csr.indptr, csr.indices, path, weights=csr.data if weighted else None, vertices=csr.shape[0], **options)


class Nodes(list):
    """What :func:`from_networkx` returns: the node of each vertex id (a
    list: ``nodes[v]``), and what became of the graph on the way."""

    edges: int  # stored: an undirected edge counts twice, a self loop once
    self_loops: int  # kept, as edges from a vertex to itself
    parallel: int  # edges of a multigraph beside another between the same nodes, kept
    isolated: int  # nodes without an edge, kept as vertices without edges
    left_out: int  # edges to or from a node not in the nodelist

    @property
    def summary(self) -> str:
        """One line, in the words of sluice convert's summaries."""
        parts = [f"{len(self)} nodes as vertices 0 .. {len(self) - 1}, {self.edges} edges stored"]
        if self.self_loops:
            parts.append(f"{self.self_loops} self loops kept (networkx's core_number refuses them; "
                         "convert with drop_self_loops=True to leave them out)")
        if self.parallel:
            parts.append(f"{self.parallel} parallel edges kept")
        if self.isolated:
            parts.append(f"{self.isolated} isolated nodes kept as vertices without edges")
        if self.left_out:
            parts.append(f"{self.left_out} edges to nodes outside the nodelist left out")
        return "from_networkx: " + "; ".join(parts)


def from_networkx(
    graph: "networkx.Graph", path: PathLike, weight: Optional[str] = None, nodelist: Optional[Sequence[Hashable]] = None,
    **options: Any
) -> Nodes:
    """Writes a networkx graph: its nodes (any hashable) become ids 0 .. n - 1
    in the order of ``nodelist`` (default: graph.nodes), an undirected edge
    is stored both ways (a self loop once), every edge of a multigraph is
    kept (parallel edges stay parallel, each with its own weight), self
    loops and isolated nodes are kept, and ``weight`` names the edge
    attribute to keep as the weight (None: unweighted; an edge without it
    weighs 1). Returns the node of each id, whose ``summary`` says what was
    kept; ``result.by_node(nodes)`` keys a run's values by these nodes.
    Options as :func:`from_arrays`."""
    nodes = Nodes(graph.nodes if nodelist is None else nodelist)
    index = {node: i for i, node in enumerate(nodes)}
    if len(index) != len(nodes):
        raise _core.UsageError("nodelist names a node twice")
    directed, multigraph = graph.is_directed(), graph.is_multigraph()
    # Each node's neighbours, as the graph holds them: an undirected edge
    # is in both ends' lists (a self loop in one), a multigraph's parallel
    # edges under one neighbour. Read list by list, the ids looked up by
    # map() where no neighbour falls outside the nodelist.
    adjacency = getattr(graph, "_adj", None) or graph.adj
    counts = np.zeros(len(nodes), dtype=np.int64)
    targets: list[int] = []
    weights: list[Any] = []
    self_loops = parallel = 0
    for i, u in enumerate(nodes):
        if u not in adjacency:
            raise _core.UsageError(f"nodelist names {u!r}, which is not a node of the graph")
        neighbours = adjacency[u]
        before = len(targets)
        if not multigraph:
            try:
                targets.extend(map(index.__getitem__, neighbours))
                if weight is not None:
                    weights.extend(data.get(weight, 1) for data in neighbours.values())
            except KeyError:  # a neighbour outside the nodelist: that edge is left out
                del targets[before:], weights[before:]
                for v, data in neighbours.items():
                    if v in index:
                        targets.append(index[v])
                        if weight is not None:
                            weights.append(data.get(weight, 1))
            self_loops += u in neighbours
        else:
            for v, keyed in neighbours.items():
                j = index.get(v)
                if j is None:
                    continue
                targets.extend([j] * len(keyed))
                if weight is not None:
                    weights.extend(data.get(weight, 1) for data in keyed.values())
                self_loops += len(keyed) if j == i else 0
                parallel += len(keyed) - 1 if directed or i <= j else 0
        counts[i] = len(targets) - before
    nodes.edges = len(targets)
    nodes.self_loops, nodes.parallel = self_loops, parallel
    kept = nodes.edges if directed else (nodes.edges - self_loops) // 2 + self_loops
    nodes.left_out = graph.number_of_edges() - kept
    touched = counts > 0
    touched[np.asarray(targets, dtype=np.int64)] = True
    nodes.isolated = int(len(nodes) - np.count_nonzero(touched))
    indptr = np.concatenate(([0], np.cumsum(counts)))
    w = None if weight is None else _real_weights(np.asarray(weights, dtype=object) if weights else np.zeros(0))
    if not directed:
        options.setdefault("symmetric", True)  # stored both ways: wcc, kcore and bc need no transpose
    from_arrays(indptr, np.asarray(targets, dtype=np.int64), path, weights=w, vertices=len(nodes), **options)
    return nodes
