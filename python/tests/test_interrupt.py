"""Ctrl-C during a run: the engine stops after the EDGEMAP in progress,
KeyboardInterrupt reaches Python, and no engine thread is left."""
from __future__ import annotations

import textwrap

from conftest import interrupted_child

CHILD = textwrap.dedent(
    """
    import os, signal, sys, time
    # As at a terminal: a background job of a script starts with SIGINT
    # ignored, and Python then installs no KeyboardInterrupt handler.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import sluice
    folder = sys.argv[1]
    os.makedirs(folder + "/d0", exist_ok=True)
    sluice.generate("rmat", folder + "/g.sluice", scale=14, drives=[folder + "/d0"])
    sluice.pagerank(folder + "/g.sluice", method="classic", max_iterations=2)  # warm the runtimes' pools
    threads = len(os.listdir("/proc/self/task"))
    start = time.monotonic()
    try:
        print("running", flush=True)  # inside: a signal that comes early still lands here
        sluice.pagerank(folder + "/g.sluice", method="classic", tolerance=0, max_iterations=10**9)
        print("finished?!", flush=True)
    except KeyboardInterrupt:
        seconds = time.monotonic() - start
        # The run's OpenMP team exits after its thread, asynchronously.
        deadline = time.monotonic() + 10
        while len(os.listdir("/proc/self/task")) > threads and time.monotonic() < deadline:
            time.sleep(0.01)
        print("interrupted after %.1f s, threads %d -> %d" % (seconds, threads,
              len(os.listdir("/proc/self/task"))), flush=True)
    # The next run works as usual.
    r = sluice.pagerank(folder + "/g.sluice", method="classic", max_iterations=3, tolerance=0)
    print("then", r.iterations, "iterations", flush=True)
    """
)


def test_ctrl_c_stops_a_run(tmp_path):
    returncode, out, err = interrupted_child(CHILD, str(tmp_path))
    lines = out.splitlines()
    assert returncode == 0, err
    assert lines[0].startswith("interrupted after"), out
    before, after = lines[0].split("threads ")[1].split(" -> ")
    # "before" may still count the warm-up run's exiting OpenMP team.
    assert int(after) <= int(before)
    assert lines[1] == "then 3 iterations"
