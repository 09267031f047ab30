"""The algorithms, run out of core on a sluice layout.

Each takes the layout (a path, or a Graph opened from one), the
algorithm's parameters and the programs' engine options as keywords:

    threads        compute threads (0: all cores)
    io             "auto", "uring", "aio", "psync", or "memory" (drive files
                   read into DRAM first: the in-memory baseline)
    skip_threshold λ: skip inactive gaps of at least this many bytes
                   (0, 65536, "64k", "inf"; default: the device's calibrated
                   profile, else 64 KiB)
    bins, bin_space, edgemap ("binning" or "atomic"),
    direction      "push", "pull" (over the transpose) or "auto"
    memory_limit   bytes the run may hold in DRAM ("8g"; 0: what is available)
    pull_cache     bytes for the in-lists a pull leaves open, walked from
                   DRAM by the next pull ("auto": edges x 4 / 20; 0: off)
    page_cache     bytes of edge pages kept in DRAM from one EDGEMAP to the
                   next ("2g"; 0: none, the default)
    verify_reads   check every page read against its checksum (default True)
    symmetric      the graph stores every edge both ways: its out-edges
                   serve where the transpose is needed

and returns a result whose arrays are numpy arrays, with ``edgemaps``:
one dict per EDGEMAP (the fields of the --stats "edgemap" records; a list
pandas.DataFrame takes as it is). The GIL is released while the engine
runs; Ctrl-C stops the run after the EDGEMAP in progress and raises
KeyboardInterrupt.
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, ClassVar, Hashable, Optional, Sequence, Union

import numpy as np

from . import _core
from ._flags import ENGINE_OPTIONS, check_names, to_flags
from .graph import Graph, PathLike, open as open_graph


@dataclass(kw_only=True)
class RunResult:
    """What every run reports besides its arrays."""

    seconds: float = 0.0
    # Each vertex's id in the input: row v of every array is vertex ids[v].
    # 0 .. n - 1, unless the layout was relabelled (convert relabel=True);
    # then sources, parents and labels are input ids too.
    ids: Optional[np.ndarray] = None
    edgemaps: list[dict[str, Any]] = field(default_factory=list)
    skip_threshold: str = ""
    skip_threshold_source: str = ""
    backend: str = ""
    threads: int = 0

    # The array by_node keys; for components, whose values are vertices too.
    _keyed: ClassVar[str] = ""
    _keyed_are_vertices: ClassVar[bool] = False

    @property
    def bytes_read(self) -> int:
        return sum(e["bytes_read"] for e in self.edgemaps)

    def by_node(self, nodes: Optional[Sequence[Hashable]] = None) -> dict[Hashable, Any]:
        """The result's values (depth, rank, label, ...) as a dict keyed as
        networkx keys its results: by ``nodes[v]`` for row v, where nodes is
        what from_networkx returned (default: ``ids``, the input's ids).
        Component labels are mapped through nodes too."""
        values = getattr(self, self._keyed)
        keys = self.ids if nodes is None else nodes
        if len(keys) != len(values):
            raise _core.UsageError(f"nodes names {len(keys)} nodes; the result has {len(values)} vertices")
        if self._keyed_are_vertices and nodes is not None:
            return {node: nodes[int(value)] for node, value in zip(nodes, values)}
        return {key.item() if isinstance(key, np.generic) else key: value.item() for key, value in zip(keys, values)}


@dataclass(kw_only=True)
class BfsResult(RunResult):
    _keyed: ClassVar[str] = "depth"
    depth: np.ndarray  # int64, -1 where not reached
    parent: np.ndarray  # int64, -1 where not reached; the source is its own parent
    source: int = 0
    reached: int = 0
    levels: int = 0


@dataclass(kw_only=True)
class PageRankResult(RunResult):
    _keyed: ClassVar[str] = "rank"
    rank: np.ndarray  # float64
    iterations: int = 0
    last_change: float = 0.0
    converged: bool = False  # False: stopped at max_iterations (a RuntimeWarning says so when tolerance > 0)
    float_share_iterations: int = 0  # the first iterations, on float shares (shares "float", or classic's "auto")
    method: str = ""  # the one that ran: "delta" or "classic" (method "auto" picks)


@dataclass(kw_only=True)
class ComponentsResult(RunResult):
    _keyed: ClassVar[str] = "label"
    _keyed_are_vertices: ClassVar[bool] = True
    label: np.ndarray  # int64: the smallest vertex id of each vertex's component
    components: int = 0
    largest: int = 0
    rounds: int = 0
    edges: int = 0  # jtcc: edges united


@dataclass(kw_only=True)
class SpmvResult(RunResult):
    _keyed: ClassVar[str] = "y"
    y: np.ndarray  # float64


@dataclass(kw_only=True)
class BcResult(RunResult):
    _keyed: ClassVar[str] = "score"
    score: np.ndarray  # float64, not normalized
    sources: int = 0
    levels: int = 0


@dataclass(kw_only=True)
class SsspResult(RunResult):
    _keyed: ClassVar[str] = "distance"
    distance: np.ndarray  # float64 (summed in float32, as the weights are stored); inf where not reached
    source: Optional[int] = None  # None: from every vertex
    from_every_vertex: bool = False
    delta: float = 1.0  # the bucket width the run took
    delta_from: str = ""  # why: "given", "the largest weight", "unweighted: every weight is 1", ...
    reached: int = 0
    buckets: int = 0
    rounds: int = 0


@dataclass(kw_only=True)
class KcoreResult(RunResult):
    _keyed: ClassVar[str] = "core"
    core: np.ndarray  # int64: the coreness of each vertex
    largest: int = 0  # the degeneracy
    in_largest: int = 0  # vertices of that coreness
    rounds: int = 0


@dataclass(kw_only=True)
class TcResult(RunResult):
    _keyed: ClassVar[str] = "triangles"
    triangles: np.ndarray  # uint64: the triangles each vertex belongs to (networkx's triangles)
    clustering: np.ndarray  # float64: local clustering coefficients (networkx's clustering)
    total: int = 0  # triangles in the graph, each once
    transitivity: float = 0.0
    average_clustering: float = 0.0
    ranges: int = 0  # vertex ranges whose oriented lists were held in turn
    passes: int = 0  # reads of the graph's pages
    list_memory: int = 0  # the budget the ranges were cut to (bytes)
    held_bytes: int = 0  # the most one range held
    oriented_edges: int = 0


@dataclass(kw_only=True)
class MisResult(RunResult):
    _keyed: ClassVar[str] = "member"
    member: np.ndarray  # uint64: 1 in the set, 0 not
    seed: int = 1
    members: int = 0
    rounds: int = 0


@dataclass(kw_only=True)
class RadiiResult(RunResult):
    _keyed: ClassVar[str] = "radius"
    radius: np.ndarray  # int64: distance from the farthest sampled source reaching the vertex; -1 if none does
    seed: int = 1
    sources: int = 0
    reached: int = 0
    largest: int = 0  # a lower bound of the diameter
    rounds: int = 0


def _layout_path(graph: Union[PathLike, Graph]) -> str:
    if isinstance(graph, Graph):
        if graph.format != "sluice":
            raise _core.UsageError(
                f"{graph.path}: the algorithms run on a sluice layout, not {graph.format}: "
                "make one with sluice.convert(path, 'NAME.sluice', drives=[...])"
            )
        return graph.path
    return os.fspath(graph)


def _vertex_id(value: Any, what: str) -> int:
    """A vertex id as the engine takes it: an integer from 0 to 2**64 - 1
    (numpy integers too; not a bool, a float or a string)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise _core.UsageError(f"{what} must be a vertex id (a non-negative integer), not {value!r}")
    if not 0 <= int(value) < 2**64:
        raise _core.UsageError(f"{what} {int(value)} is not a vertex id (ids run from 0 to the vertex count - 1)")
    return int(value)


def _engine_flags(function: str, options: dict[str, Any]) -> list[str]:
    # A misspelt parameter of the algorithm itself (tolerence=) gets its hint too.
    own = [p for p in inspect.signature(globals()[function]).parameters if p not in ("graph", "options")]
    check_names(function, options, list(ENGINE_OPTIONS) + own)
    return to_flags(options)


def _result(cls: type, raw: dict[str, Any]) -> Any:
    """The result class's fields out of what the run returned (which also
    holds the parameters as read, e.g. the source picked)."""
    names = {f.name for f in dataclasses.fields(cls)}
    fields = {k: v for k, v in raw.items() if k in names}
    for signed in ("label", "core"):  # ids and counts below 2**63: int64, as depths are, so `label - 1` cannot wrap
        if signed in fields and fields[signed].dtype == np.uint64:
            fields[signed] = fields[signed].view(np.int64)
    fields["edgemaps"] = json.loads(raw.get("edgemaps", "[]"))
    if fields.get("ids") is None:
        arrays = [v for v in fields.values() if isinstance(v, np.ndarray)]
        fields["ids"] = np.arange(len(arrays[0]) if arrays else 0, dtype=np.uint64)
    return cls(**fields)


def _run(
    name: str,
    graph: Union[PathLike, Graph],
    parameters: dict[str, Any],
    options: dict[str, Any],
    vectors: Optional[dict[str, np.ndarray]] = None,
) -> dict[str, Any]:
    """Runs the algorithm table's row `name`: its parameters and the engine
    options become the program's flags, parsed by the same code."""
    flags = _engine_flags(name, options) + to_flags(parameters)
    raw = _core.run(name, _layout_path(graph), flags, vectors or {})
    for warning in raw.pop("warnings", []):  # what the programs print on stderr
        warnings.warn(f"sluice.{name}: {warning}", RuntimeWarning, stacklevel=3)
    return raw


def bfs(graph: Union[PathLike, Graph], source: Optional[int] = None, **options: Any) -> BfsResult:
    """Breadth-first search from ``source`` (default: the vertex of highest
    out-degree): depth and parent of every vertex."""
    start = None if source is None else _vertex_id(source, "source")
    return _result(BfsResult, _run("bfs", graph, {"source": start}, options))


def pagerank(
    graph: Union[PathLike, Graph],
    method: str = "auto",
    damping: float = 0.85,
    tolerance: float = 1e-4,
    max_iterations: int = 20,
    delta_threshold: float = 0.01,
    dangling: str = "drop",
    shares: str = "auto",
    **options: Any,
) -> PageRankResult:
    """PageRank: method "delta" (Ligra/Blaze: only changed vertices push),
    "classic" (GAPBS), or "auto": delta, or classic where delta's 24 bytes a
    vertex do not fit memory_limit beside the engine's floor and classic's
    do, or with dangling "spread" (the result's method says which ran);
    dangling "drop" (GAPBS, Ligra, Blaze) or "spread" (networkx; classic
    only); shares "float" (GAPBS's: what each vertex
    sends along its out-edges in half the memory, faster once that outgrows
    the caches; its rounding leaves an iteration's L1 change at a few 1e-9,
    so tolerances below about 1e-8 may not be reached), "double", or "auto":
    classic on float while an iteration changes the ranks by more than 100
    x 2^-24 / (1 - damping) (4e-5 at 0.85), double after; delta on double
    (as fast from disk, and in 4 bytes a vertex less)."""
    if max_iterations < 0:
        raise _core.UsageError(f"max_iterations must not be negative (got {max_iterations})")
    parameters = {
        "method": method,
        "damping": damping,
        "tolerance": tolerance,
        "iterations": max_iterations,
        "delta_threshold": delta_threshold,
        "dangling": dangling,
        "shares": shares,
    }
    return _result(PageRankResult, _run("pagerank", graph, parameters, options))


def wcc(graph: Union[PathLike, Graph], **options: Any) -> ComponentsResult:
    """Weakly connected components (Afforest over the engine; needs the
    transpose, or symmetric=True). Each label is its component's smallest id."""
    return _result(ComponentsResult, _run("wcc", graph, {}, options))


def jtcc(graph: Union[PathLike, Graph], seed: int = 0x5EED, **open_options: Any) -> ComponentsResult:
    """Connected components by concurrent union-find in one pass over the
    edges, on a graph of any format (a path is opened with ``open_options``)."""
    if isinstance(graph, Graph):
        if open_options:
            raise TypeError("jtcc() takes open options only with a path, not with an opened Graph")
        return _result(ComponentsResult, _core.jtcc(graph._handle, seed))
    with open_graph(graph, **open_options) as opened:
        return _result(ComponentsResult, _core.jtcc(opened._handle, seed))


def spmv(
    graph: Union[PathLike, Graph],
    x: Optional[Sequence[float]] = None,
    transposed: bool = False,
    allow_nonfinite: bool = False,
    **options: Any,
) -> SpmvResult:
    """y = A x (reads the transpose) or, transposed=True, y = A^T x, with
    A[i, j] the weight of edge i -> j (1 when unweighted). x defaults to
    ones; a nan or inf in x (None becomes nan) raises InputError unless
    allow_nonfinite=True."""
    xs = None if x is None else np.ascontiguousarray(x, dtype=np.float64)
    if xs is not None and xs.ndim != 1:
        raise _core.UsageError(f"x must be a vector, not an array of shape {xs.shape}")
    vectors = None if xs is None else {"x": xs}
    parameters = {"transposed": bool(transposed), "allow_nonfinite_x": bool(allow_nonfinite)}
    return _result(SpmvResult, _run("spmv", graph, parameters, options, vectors))


def bc(
    graph: Union[PathLike, Graph], sources: Union[None, int, Sequence[int], str] = None, **options: Any
) -> BcResult:
    """Betweenness centrality (Brandes) from ``sources``: one id, a list of
    ids, "all" (exact), or None (the vertex of highest out-degree). Needs
    the transpose, or symmetric=True. Scores are not normalized."""
    every = isinstance(sources, str)
    if every and sources != "all":
        raise _core.UsageError(f"sources must be ids or 'all', not {sources!r}")
    if sources is None or every:
        ids = []
    elif np.isscalar(sources):
        ids = [_vertex_id(sources, "source")]
    else:
        ids = [_vertex_id(s, "source") for s in sources]
        if not ids:  # not the default source in disguise
            raise _core.UsageError("sources was given an empty value (ids, 'all', or None for the vertex of highest out-degree)")
    parameters = {"sources": ids or None, "all_sources": every}
    return _result(BcResult, _run("bc", graph, parameters, options))


def sssp(
    graph: Union[PathLike, Graph],
    source: Optional[int] = None,
    delta: Union[float, str] = "auto",
    from_every_vertex: bool = False,
    **options: Any,
) -> SsspResult:
    """Single-source shortest paths from ``source`` (default: the vertex of
    highest out-degree) by delta-stepping with bucket width ``delta``
    (GAPBS's sssp); ``delta=float("inf")`` runs Bellman-Ford, which also
    takes negative weights. ``"auto"`` takes the layout's largest weight
    (1 for an unweighted graph, Bellman-Ford where a weight is negative):
    few wide buckets read far fewer bytes out of core than narrow ones.
    Unweighted graphs have weight 1.

    ``from_every_vertex=True`` starts every vertex at distance 0 instead
    (a virtual source joined to each by weight 0): each vertex's least
    distance from any vertex, at most 0. With ``delta=float("inf")`` these
    are Johnson's potentials, and a negative cycle anywhere in the graph
    raises ``sluice.Error``."""
    if from_every_vertex and source is not None:
        raise _core.UsageError("give source or from_every_vertex=True, not both")
    start = None if source is None else _vertex_id(source, "source")
    parameters = {"source": start, "delta": delta, "from_every_vertex": from_every_vertex}
    return _result(SsspResult, _run("sssp", graph, parameters, options))


def kcore(graph: Union[PathLike, Graph], **options: Any) -> KcoreResult:
    """k-core decomposition by peeling (Ligra's KCore): the coreness of every
    vertex of an undirected graph (a layout converted with symmetrize, or
    symmetric=True). Degrees count stored edges; networkx's core_number is
    that of a layout converted with symmetrize, dedup and drop_self_loops."""
    return _result(KcoreResult, _run("kcore", graph, {}, options))


def tc(graph: Union[PathLike, Graph], list_memory: Union[int, str] = 0, **options: Any) -> TcResult:
    """Triangle counting on an undirected graph (a layout converted with
    symmetrize, or symmetric=True): each vertex's triangles and local
    clustering coefficient, the total, transitivity and average clustering,
    as networkx computes them on the simple graph (self loops and repeated
    edges do not count). Out of core: the oriented lists of as many vertices
    as ``list_memory`` bytes hold ("512m"; 0: what memory_limit leaves) are
    held at once, and the graph is scanned once per such range."""
    return _result(TcResult, _run("tc", graph, {"list_memory": list_memory}, options))


def mis(graph: Union[PathLike, Graph], seed: int = 1, **options: Any) -> MisResult:
    """A maximal independent set of an undirected graph (Ligra's MIS): the
    set a greedy pass takes in an order of pseudo-random priorities drawn
    from ``seed``. Self loops are ignored."""
    return _result(MisResult, _run("mis", graph, {"seed": seed}, options))


def radii(graph: Union[PathLike, Graph], seed: int = 1, **options: Any) -> RadiiResult:
    """Radii estimation (Ligra's Radii): a BFS from 64 sources drawn with
    ``seed`` (every vertex when there are at most 64) at once; each vertex's
    estimate is its distance from the farthest source that reaches it."""
    return _result(RadiiResult, _run("radii", graph, {"seed": seed}, options))


__all__ = [
    "RunResult",
    "BfsResult",
    "PageRankResult",
    "ComponentsResult",
    "SpmvResult",
    "BcResult",
    "SsspResult",
    "KcoreResult",
    "TcResult",
    "MisResult",
    "RadiiResult",
    "bfs",
    "pagerank",
    "wcc",
    "jtcc",
    "spmv",
    "bc",
    "sssp",
    "kcore",
    "tc",
    "mis",
    "radii",
]
