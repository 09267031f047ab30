"""sluice: out-of-core graph processing from Python.

    import sluice
    sluice.convert("web.txt.gz", "web.sluice", drives=["/mnt/d0", "/mnt/d1"], transpose=True)
    with sluice.open("web.sluice") as g:
        A = g.to_scipy()
    ranks = sluice.pagerank("web.sluice", method="classic").rank

Graphs of every format sluice reads open through the block API
(:func:`open`); the algorithms run out of core on a sluice layout and
return numpy arrays; :func:`convert`, :func:`generate`, :func:`from_scipy`
and :func:`from_networkx` write graphs. Errors are :class:`Error`
(:class:`UsageError` for a bad option or value, :class:`InputError` for
bad input), with the command line's messages.
"""
from ._core import Error, InputError, UsageError
from ._core import version as __version__
from . import algorithms as _algorithms
from .algorithms import *  # noqa: F401,F403 (every algorithm and result; see its __all__)
from .graph import Block, EdgeCount, Graph, open
from .stats import read_stats
from .writing import Nodes, convert, from_arrays, from_networkx, from_scipy, generate

__all__ = [
    "Error",
    "InputError",
    "UsageError",
    "Graph",
    "Block",
    "EdgeCount",
    "open",
    "convert",
    "generate",
    "from_arrays",
    "from_scipy",
    "from_networkx",
    "Nodes",
    "read_stats",
] + _algorithms.__all__
