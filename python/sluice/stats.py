"""`--stats FILE` read back as tables: one pandas DataFrame per record type."""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from . import _core
from .graph import PathLike

if TYPE_CHECKING:
    import pandas


def read_stats(path: PathLike) -> dict[str, "pandas.DataFrame"]:
    """The records of a program's ``--stats`` file, one tidy table per
    record type: ``"run"``, ``"edgemap"``,
    ``"exchange"`` (MPI ranks) and ``"summary"``, each with one row per
    record and one column per field (nested fields flattened:
    ``parameters.source``, ``memory.held``). Several runs appended to one
    file give several rows of ``"run"``; the other tables' ``algorithm``
    and ``trial`` columns tell their rows apart."""
    import pandas

    path = os.fspath(path)
    records: dict[str, list[dict]] = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise _core.InputError(f"{path}: line {number}: expected a JSON record ({e.msg})") from None
            if not isinstance(record, dict) or not isinstance(record.get("record"), str):
                raise _core.InputError(f"{path}: line {number}: expected an object with a \"record\" field")
            records.setdefault(record["record"], []).append(record)
    return {kind: pandas.json_normalize(rows).drop(columns="record") for kind, rows in records.items()}
