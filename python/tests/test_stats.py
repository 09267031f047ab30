"""sluice.read_stats: a program's --stats file as one table per record type."""
from __future__ import annotations

import pytest

import sluice
from conftest import run_program


def test_read_stats_gives_a_table_per_record_type(layouts, programs, tmp_path):
    pandas = pytest.importorskip("pandas")
    path, _ = layouts[("rmat", 2)]
    stats = tmp_path / "bfs.jsonl"
    run_program(programs, "sluice-bfs", path, "--source", 3, "-n", 2, "--stats", stats)
    tables = sluice.read_stats(stats)
    assert sorted(tables) == ["edgemap", "run", "summary"]
    assert all(isinstance(t, pandas.DataFrame) for t in tables.values())
    run, edgemaps, summary = tables["run"], tables["edgemap"], tables["summary"]
    assert len(run) == 1 and run["algorithm"][0] == "bfs" and run["parameters.source"][0] == 3  # nested fields flattened
    assert "record" not in edgemaps.columns and set(edgemaps["direction"]) <= {"push", "pull"}
    assert summary["trial"].tolist() == [0, 1]
    # Each trial's EDGEMAP rows add up to its summary.
    per_trial = edgemaps.groupby("trial")["bytes_read"].sum()
    assert per_trial.tolist() == summary["bytes_read"].tolist()
    assert edgemaps.groupby("trial").size().tolist() == summary["edge_maps"].tolist()


def test_read_stats_names_the_bad_line(tmp_path):
    pytest.importorskip("pandas")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"record": "run"}\n\n{"record": "edgemap", \n')
    with pytest.raises(sluice.InputError, match=r"bad.jsonl: line 3: expected a JSON record"):
        sluice.read_stats(bad)
    bad.write_text('[1, 2]\n')
    with pytest.raises(sluice.InputError, match=r"line 1: expected an object with a \"record\" field"):
        sluice.read_stats(bad)
