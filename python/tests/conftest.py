"""Shared fixtures: graphs of many shapes as scipy matrices, written as
sluice layouts on one and on two drives, and the built programs."""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import scipy.sparse

import sluice

SHARED_DATA = pathlib.Path(os.environ.get("SLUICE_DATA", pathlib.Path(__file__).parents[2] / ".." / "shared" / "data"))


def rmat_edges(scale: int, edge_factor: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A small RMAT graph drawn here (independently of sluice's generator)."""
    rng = np.random.default_rng(seed)
    m = (1 << scale) * edge_factor
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    for bit in range(scale):
        r = rng.random(m)
        right = (r >= 0.57) & (r < 0.76) | (r >= 0.95)
        down = r >= 0.76
        src |= down.astype(np.int64) << bit
        dst |= right.astype(np.int64) << bit
    return src, dst


def matrix(n: int, src, dst, weights=None) -> scipy.sparse.csr_matrix:
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    data = np.ones(len(src), dtype=np.float32) if weights is None else np.asarray(weights, dtype=np.float32)
    # Keep duplicates as separate edges: build the CSR by hand, sorted by source.
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(indptr, src + 1, 1)
    return scipy.sparse.csr_matrix((data[order], dst[order], np.cumsum(indptr)), shape=(n, n))


def shapes() -> dict[str, scipy.sparse.csr_matrix]:
    rng = np.random.default_rng(7)
    n = 300
    star = np.arange(1, 50)
    chain = np.arange(0, 99)
    s, d = rmat_edges(9, 8, 3)
    u_src, u_dst = rng.integers(0, n, 2000), rng.integers(0, n, 2000)
    return {
        "empty": matrix(0, [], []),
        "one_vertex": matrix(1, [], []),
        "self_loops": matrix(4, [0, 1, 1, 2, 3], [0, 1, 2, 2, 0]),
        "duplicates": matrix(5, [0, 0, 0, 1, 3, 3], [1, 1, 2, 2, 4, 4]),
        "isolated": matrix(10, [2, 5], [5, 7]),
        "star": matrix(50, np.zeros(49, dtype=int), star),
        "chain": matrix(100, chain, chain + 1),
        "rmat": matrix(1 << 9, s, d),
        "uniform": matrix(n, u_src, u_dst),
    }


@pytest.fixture(scope="session")
def graphs() -> dict[str, scipy.sparse.csr_matrix]:
    return shapes()


@pytest.fixture(scope="session")
def layouts(tmp_path_factory, graphs) -> dict[tuple[str, int], tuple[str, scipy.sparse.csr_matrix]]:
    """(shape, drives) -> (layout path, matrix), with the transpose: on one
    drive the default, compressed pages; on two, plain pages (every test
    taking both drive counts runs on both kinds)."""
    root = tmp_path_factory.mktemp("layouts")
    out = {}
    for name, a in graphs.items():
        for drives in (1, 2):
            dirs = [root / f"{name}-{drives}-d{i}" for i in range(drives)]
            for d in dirs:
                d.mkdir()
            path = root / f"{name}-{drives}.sluice"
            sluice.from_scipy(a, path, drives=dirs, transpose=True, weighted=False, compress=drives == 1)
            out[(name, drives)] = (str(path), a)
    return out


@pytest.fixture(scope="session")
def programs() -> pathlib.Path:
    """The folder of the built programs (sluice, sluice-bfs...)."""
    folder = os.environ.get("SLUICE_BIN")
    if not folder:
        pytest.skip("SLUICE_BIN is not set (ctest sets it)")
    return pathlib.Path(folder)


def run_program(programs: pathlib.Path, name: str, *args) -> None:
    subprocess.run([str(programs / name), *map(str, args)], check=True, capture_output=True)


def threads_now() -> int:
    return len(os.listdir("/proc/self/task"))


def threads_after(expected: int, seconds: float = 10.0) -> int:
    """The thread count once it has come down to `expected` (or the time is
    up): each call runs its work on a thread of its own, and the OpenMP
    team that thread started exits after it, asynchronously. Compare with
    <=: a count taken as the baseline may still include such a team."""
    deadline = time.monotonic() + seconds
    while threads_now() > expected and time.monotonic() < deadline:
        time.sleep(0.01)
    return threads_now()


def fds_now() -> int:
    return len(os.listdir("/proc/self/fd"))


def interrupted_child(code: str, *args: str, after: float = 1.0) -> tuple[int, str, str]:
    """Runs `code` in a child Python, which prints "running" once its long
    call is under way; Ctrl-C `after` seconds later. Returns the exit status,
    stdout after "running", and stderr. A child Ctrl-C did not stop is
    killed after 60 s: the test fails instead of hanging."""
    child = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=os.environ)
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(after)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, out, err
