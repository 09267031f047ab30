"""sluice as a networkx backend: ``nx.pagerank(G, backend="sluice")``, or
any dispatchable function given a layout opened with :func:`sluice.open`.

networkx (3.2 or later) finds the backend through the ``networkx.backends``
entry point. A networkx graph is written to a temporary layout once
(networkx caches the conversion on the graph); a layout opened from disk
is used where it lies, and nothing of it is loaded beyond what the
program needs. Results are dicts (or sets, generators) keyed by the
graph's own nodes, as networkx returns them.

A call sluice cannot answer exactly (a personalization vector, edge
weights PageRank would need, weights a float32 sum could round) is
declined with a reason through ``can_run``: networkx then runs its own
implementation, or says why not.
"""
from __future__ import annotations

import contextlib
import inspect
import shutil
import tempfile
import warnings
import weakref
from typing import Any, Hashable, Iterator, Optional, Sequence

import numpy as np

from . import _core
from . import algorithms as _algorithms
from .graph import Graph as _OpenedGraph
from .writing import from_networkx as _from_networkx

# A float32 sums integers exactly below this; larger sums could round.
_EXACT_FLOAT32 = 2**24


class LayoutGraph:
    """A graph as the backend runs it: a sluice layout and the node of each
    vertex. Made from a networkx graph (on a temporary layout, removed when
    this object goes) or from a layout opened with :func:`sluice.open`."""

    __networkx_backend__ = "sluice"

    def __init__(self, path: str, nodes: Sequence[Hashable], directed: bool, multigraph: bool, weighted: bool,
                 owned_dir: Optional[str] = None, relabelled: bool = False) -> None:
        self.path = path
        self.nodes = list(nodes)
        self.relabelled = relabelled  # nodes are the input's ids, which the algorithms take as they are
        self._directed = directed
        self._multigraph = multigraph
        self.weighted = weighted
        self._index: Optional[dict[Hashable, int]] = None
        if owned_dir is not None:
            self._cleanup = weakref.finalize(self, shutil.rmtree, owned_dir, True)

    def is_directed(self) -> bool:
        return self._directed

    def is_multigraph(self) -> bool:
        return self._multigraph

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.nodes)

    def __contains__(self, node: Hashable) -> bool:
        try:
            return node in self.index
        except TypeError:  # unhashable: not a node, as networkx answers
            return False

    @property
    def index(self) -> dict[Hashable, int]:
        if self._index is None:
            self._index = {node: i for i, node in enumerate(self.nodes)}
        return self._index

    def vertex(self, node: Hashable, missing: type = KeyError, message: str = "") -> int:
        """`node` as the algorithms take it (a relabelled layout's input id,
        else its vertex), or `missing` raised (networkx's exception for the
        function at hand)."""
        if node not in self:
            raise missing(message or node)
        return int(node) if self.relabelled else self.index[node]

    def keyed(self, values: np.ndarray) -> dict[Hashable, Any]:
        return dict(zip(self.nodes, values.tolist()))


def _as_layout(G: Any) -> LayoutGraph:
    """The graph a backend function was given, as a LayoutGraph."""
    if isinstance(G, LayoutGraph):
        return G
    if isinstance(G, _OpenedGraph):
        if G.format != "sluice":
            raise _core.UsageError(f"{G.path}: the sluice backend runs on a layout, not {G.format}: "
                                   "convert it first (sluice.convert(path, 'NAME.sluice', drives=[...]))")
        nodes = G.ids.tolist() if G.relabelled else range(G.vertices)
        return LayoutGraph(G.path, nodes, directed=not G.symmetric, multigraph=False, weighted=G.weighted,
                           relabelled=G.relabelled)
    raise TypeError(f"expected a networkx graph converted to sluice, or a sluice layout; got {type(G).__name__}")


def _weight_attribute(edge_attrs: Any) -> Optional[str]:
    if not edge_attrs:
        return None
    if isinstance(edge_attrs, str):
        return edge_attrs
    names = [name for name in edge_attrs if name is not None]
    if len(names) > 1:
        raise NotImplementedError("sluice stores one weight per edge")
    return names[0] if names else None


def _has_weights(G: Any, weight: Optional[str]) -> bool:
    """Whether a networkx graph's edges carry `weight` other than 1 (what
    an edge without it weighs)."""
    if weight is None:
        return False
    return any(data.get(weight, 1) != 1 for *_, data in G.edges(data=True))


def _integer_weights(G: Any, weight: str, negative: bool) -> Optional[str]:
    """Why the weights cannot be summed exactly in float32 (None: they can):
    each must be an integer, and every path shorter than 2**24."""
    total = 0
    for *_, data in G.edges(data=True):
        w = data.get(weight, 1)
        if not isinstance(w, (int, np.integer)) and not (isinstance(w, (float, np.floating)) and float(w).is_integer()):
            return f"weight {w!r} is not an integer: sluice sums weights in float32, which would round it"
        if w < 0 and not negative:
            return "a negative weight (networkx's Dijkstra answers it)"
        total += abs(int(w))
    if total >= _EXACT_FLOAT32:
        return "the weights sum past 2**24, where float32 sums round"
    return None


def convert_from_nx(G: Any, edge_attrs: Any = None, node_attrs: Any = None, preserve_edge_attrs: bool = False,
                    preserve_node_attrs: bool = False, preserve_graph_attrs: bool = False, name: Optional[str] = None,
                    graph_name: Optional[str] = None) -> LayoutGraph:
    """A networkx graph written to a temporary layout (with its transpose
    when directed), weighted by the one edge attribute the function uses."""
    if preserve_edge_attrs:
        raise NotImplementedError("sluice keeps one edge attribute, the weight")
    weight = _weight_attribute(edge_attrs)
    weighted = _has_weights(G, weight)
    folder = tempfile.mkdtemp(prefix="sluice-networkx-")
    try:
        path = f"{folder}/g.sluice"
        nodes = _from_networkx(G, path, weight=weight if weighted else None, drives=[folder], transpose=G.is_directed(),
                               threads=1)
    except BaseException:
        shutil.rmtree(folder, True)
        raise
    return LayoutGraph(path, nodes, G.is_directed(), G.is_multigraph(), weighted, owned_dir=folder)


def convert_to_nx(result: Any, *, name: Optional[str] = None) -> Any:
    """Results are networkx's own types already; a LayoutGraph is never
    returned."""
    return result


# ---- the functions ----

def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight", dangling=None):
    import networkx as nx

    g = _as_layout(G)
    n = len(g)
    if n == 0:
        return {}
    if g.weighted and weight is not None:
        raise NotImplementedError("sluice's PageRank follows edges unweighted")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # not converging is raised below, as networkx raises it
        r = _algorithms.pagerank(g.path, method="classic", dangling="spread", damping=alpha, tolerance=n * tol,
                                 max_iterations=max_iter, shares="double")
    if not r.converged:
        raise nx.PowerIterationFailedConvergence(max_iter)
    return g.keyed(r.rank)


@contextlib.contextmanager
def _no_lonely_source_warning() -> Iterator[None]:
    """networkx answers a source without out-edges without a word."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*has no out-edges", category=RuntimeWarning)
        yield


def _components(g: LayoutGraph) -> list[set]:
    """Every component as a set of nodes, in the order of each one's first node."""
    labels = _algorithms.wcc(g.path).label if len(g) else np.zeros(0, dtype=np.int64)
    groups: dict[int, set] = {}
    for node, label in zip(g.nodes, labels.tolist()):
        groups.setdefault(label, set()).add(node)
    return list(groups.values())


def connected_components(G):
    yield from _components(_as_layout(G))


def number_connected_components(G):
    return len(_components(_as_layout(G)))


def is_connected(G):
    import networkx as nx

    g = _as_layout(G)
    if len(g) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return len(_components(g)) == 1


def node_connected_component(G, n):
    g = _as_layout(G)
    g.vertex(n)
    return next(c for c in _components(g) if n in c)


# Weak components are the components of the edges taken both ways, which
# is what Afforest finds on a directed layout (out- and in-edges).
weakly_connected_components = connected_components
number_weakly_connected_components = number_connected_components
is_weakly_connected = is_connected


def single_source_shortest_path_length(G, source, cutoff=None):
    import networkx as nx

    g = _as_layout(G)
    s = g.vertex(source, nx.NodeNotFound, f"Source {source} is not in G")
    with _no_lonely_source_warning():
        depth = _algorithms.bfs(g.path, source=s).depth
    limit = float("inf") if cutoff is None else cutoff
    return {node: d for node, d in zip(g.nodes, depth.tolist()) if 0 <= d <= limit}


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    return single_source_shortest_path_length(G, source)


def _distances(g: LayoutGraph, source: Hashable, delta: Any, integers: bool) -> dict:
    import networkx as nx

    s = g.vertex(source, nx.NodeNotFound, f"Node {source} not found in graph")
    with _no_lonely_source_warning():
        distance = _algorithms.sssp(g.path, source=s, delta=delta).distance
    return {node: (int(d) if integers else d) for node, d in zip(g.nodes, distance.tolist()) if d != float("inf")}


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    g = _as_layout(G)
    # Weights are integers here (can_run): buckets as wide as the largest
    # one keep the rounds few; the distances are exact either way.
    found = _distances(g, source, "auto", True)
    return found if cutoff is None else {node: d for node, d in found.items() if d <= cutoff}


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    import networkx as nx

    g = _as_layout(G)
    try:
        return _distances(g, source, float("inf"), True)
    except _core.Error as e:
        if "negative cycle" in str(e):
            raise nx.NetworkXUnbounded("Negative cycle detected.") from None
        raise


def negative_edge_cycle(G, weight="weight", heuristic=True):
    # Bellman-Ford from every vertex at once, as networkx's from a new node
    # joined to every other: a negative cycle anywhere keeps distances
    # falling. (networkx's heuristic only stops its own search sooner.)
    g = _as_layout(G)
    if len(g) == 0:
        return False
    try:
        _algorithms.sssp(g.path, delta=float("inf"), from_every_vertex=True)
    except _core.Error as e:
        if "negative cycle" in str(e):
            return True
        raise
    return False


def core_number(G):
    g = _as_layout(G)
    if len(g) == 0:
        return {}
    return g.keyed(_algorithms.kcore(g.path).core)


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    from networkx.algorithms.centrality.betweenness import _rescale

    g = _as_layout(G)
    if k == len(g):
        k = None
    sources = None if k is None else seed.sample(list(g.nodes), k)
    if len(g) == 0:
        scores = {}
    elif sources is not None and not sources:
        scores = dict.fromkeys(g.nodes, 0.0)
    else:
        ids = "all" if sources is None else [g.vertex(s) for s in sources]
        scores = g.keyed(_algorithms.bc(g.path, sources=ids).score)
    return _rescale(scores, len(g), normalized=normalized, directed=g.is_directed(), endpoints=endpoints,
                    sampled_nodes=sources)


def _triangle_counts(G) -> tuple[LayoutGraph, Any]:
    g = _as_layout(G)
    return g, (_algorithms.tc(g.path) if len(g) else None)


def _by_nodes(g: LayoutGraph, values: Any, nodes: Any) -> Any:
    """networkx's answer for `nodes`: one node's value, or a dict over the
    nodes given (those of the graph, as nbunch_iter keeps them), or all."""
    if values is None:
        return {}
    if nodes is not None and nodes in g:
        return values[g.index[nodes]].item()
    if nodes is None:
        return g.keyed(values)
    return {node: values[g.index[node]].item() for node in nodes if node in g}


def triangles(G, nodes=None):
    g, r = _triangle_counts(G)
    return _by_nodes(g, None if r is None else r.triangles, nodes)


def clustering(G, nodes=None, weight=None):
    g, r = _triangle_counts(G)
    return _by_nodes(g, None if r is None else r.clustering, nodes)


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    c = clustering(G, nodes).values()  # summed in node order, as networkx sums them
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    g, r = _triangle_counts(G)
    return 0 if r is None or r.total == 0 else r.transitivity


# ---- what networkx asks of a backend ----

_IMPLEMENTED = {
    "pagerank": "classic power iteration with networkx's convergence test (L1 change below N x tol); unweighted",
    "connected_components": "Afforest (sampled union-find, then the rest of the edges out of core)",
    "number_connected_components": "as connected_components",
    "is_connected": "as connected_components",
    "node_connected_component": "as connected_components",
    "weakly_connected_components": "Afforest over the out- and in-edges",
    "number_weakly_connected_components": "as weakly_connected_components",
    "is_weakly_connected": "as weakly_connected_components",
    "single_source_shortest_path_length": "direction-optimizing BFS",
    "shortest_path_length": "BFS, for a source and no target or weight",
    "single_source_dijkstra_path_length": "Bellman-Ford over the frontier, integer weights (exact in float32)",
    "single_source_bellman_ford_path_length": "Bellman-Ford over the frontier, integer weights (exact in float32)",
    "negative_edge_cycle": "Bellman-Ford from every vertex at once, integer weights (exact in float32)",
    "core_number": "peeling, on undirected graphs",
    "betweenness_centrality": "Brandes from every source or k sampled ones, unweighted, without endpoints",
    "triangles": "oriented lists held in DRAM within a budget, every list streamed past them (undirected graphs)",
    "clustering": "from the triangle counts, unweighted, on undirected graphs",
    "average_clustering": "from the triangle counts, unweighted, on undirected graphs",
    "transitivity": "from the triangle counts, on undirected graphs",
}


def _arguments(name: str, args: tuple, kwargs: dict) -> dict[str, Any]:
    bound = inspect.signature(globals()[name]).bind_partial(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments


def can_run(name: str, args: tuple, kwargs: dict) -> Any:
    """True, or why sluice declines this call (networkx then runs it)."""
    if name not in _IMPLEMENTED:
        return f"sluice does not implement {name}"
    a = _arguments(name, args, kwargs)
    G = a.get("G")
    nx_graph = G is not None and not isinstance(G, (LayoutGraph, _OpenedGraph))
    if name == "pagerank":
        if a["personalization"] is not None or a["nstart"] is not None or a["dangling"] is not None:
            return "personalization, nstart and dangling are networkx's alone"
        if nx_graph and _has_weights(G, a["weight"]):
            return f"the edges' {a['weight']!r} weights (sluice's PageRank is unweighted)"
    elif name == "shortest_path_length":
        if a["source"] is None or a["target"] is not None or a["weight"] is not None:
            return "only a source's unweighted lengths to every node"
    elif name in ("single_source_dijkstra_path_length", "single_source_bellman_ford_path_length", "negative_edge_cycle"):
        if not isinstance(a["weight"], str):
            return "a weight function (sluice reads stored weights)"
        if nx_graph:
            why = _integer_weights(G, a["weight"], negative=name != "single_source_dijkstra_path_length")
            if why:
                return why
    elif name == "core_number":
        if G is not None and G.is_directed():
            return "a directed graph (sluice's k-core peels undirected ones)"
        if nx_graph and any(u == v for u, v in G.edges()):
            return "self loops (networkx refuses them, with its own message)"
    elif name in ("triangles", "clustering", "average_clustering", "transitivity"):
        if G is not None and G.is_directed():
            return "a directed graph (sluice counts the triangles of undirected ones)"
        if G is not None and G.is_multigraph():
            return "a multigraph (networkx refuses it, with its own message)"
        if a.get("weight") is not None:
            return "weighted clustering is networkx's alone"
    elif name == "betweenness_centrality":
        if a["weight"] is not None or a["endpoints"]:
            return "weights and endpoints are networkx's alone"
        if G is not None and G.is_multigraph():
            return "a multigraph (networkx counts parallel edges once in its paths)"
    return True


def should_run(name: str, args: tuple, kwargs: dict) -> bool:
    return True


class BackendInterface:
    """What the networkx.backends entry point names."""


for _name in _IMPLEMENTED:
    setattr(BackendInterface, _name, staticmethod(globals()[_name]))
BackendInterface.convert_from_nx = staticmethod(convert_from_nx)
BackendInterface.convert_to_nx = staticmethod(convert_to_nx)
BackendInterface.can_run = staticmethod(can_run)
BackendInterface.should_run = staticmethod(should_run)


def get_info() -> dict[str, Any]:
    """What the networkx.backend_info entry point returns."""
    return {
        "backend_name": "sluice",
        "project": "sluice",
        "package": "sluice",
        "short_summary": "Out-of-core graph processing: the graph on disk, the vertex state in memory.",
        "functions": {name: {"additional_docs": docs} for name, docs in _IMPLEMENTED.items()},
    }
