"""Keyword arguments to the command line's flags.

The native module parses the flags exactly as the programs do, so a value
is checked, and refused with the same message, as on the command line.
Here only the names are checked: an unknown keyword is a TypeError with
the nearest known name, as Python itself reports misspelt arguments.
"""
from __future__ import annotations

import difflib
import os
from typing import Any, Iterable, Mapping

# The engine options every algorithm on a layout takes (the programs'
# --threads, --io, --skip-threshold, ...). verify_reads=False is
# --no-verify-reads.
ENGINE_OPTIONS = (
    "threads",
    "io",
    "skip_threshold",
    "bins",
    "bin_space",
    "direction",
    "edgemap",
    "memory_limit",
    "pull_cache",
    "page_cache",
    "verify_reads",
    "symmetric",
)

# sluice.open's read and rebuild options (sluice convert's).
OPEN_OPTIONS = (
    "format",
    "threads",
    "base",
    "vertices",
    "wide_ids",
    "save_offsets",
    "adjacency_dirs",
    "block_edges",
    "buffers",
    "symmetrize",
    "drop_self_loops",
    "dedup",
    "sort",
    "drop_weights",
    "relabel",
    "reorder",
)


def check_names(function: str, given: Iterable[str], known: Iterable[str]) -> None:
    known = list(known)
    for name in given:
        if name not in known:
            hint = difflib.get_close_matches(name, known, n=1)
            raise TypeError(
                f"{function}() got an unexpected keyword argument '{name}'"
                + (f"; did you mean '{hint[0]}'?" if hint else "")
            )


def to_flags(options: Mapping[str, Any]) -> list[str]:
    """{"skip_threshold": "64k", "transpose": True} -> ["--skip-threshold", "64k", "--transpose"]."""
    flags: list[str] = []
    for name, value in options.items():
        if value is None:
            continue
        if name == "verify_reads":
            if not value:
                flags.append("--no-verify-reads")
            continue
        if name == "compress":  # compressed pages are the default; False asks for plain ones
            flags.append("--compress" if value else "--plain")
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            flags.append(flag)
        elif value is False:
            continue
        elif isinstance(value, (list, tuple)):
            flags += [flag, ",".join(os.fspath(v) if isinstance(v, os.PathLike) else str(v) for v in value)]
        elif isinstance(value, float) and value == float("inf"):
            flags += [flag, "inf"]
        else:
            flags += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return flags
