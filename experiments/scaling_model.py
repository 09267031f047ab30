#!/usr/bin/env python3
"""The measured figures of experiments/bench_ranks.sh, and a model on paper
that projects the weak-scaling runs to 8, 32 and 128 machines, and the
strong-scaling runs (one graph, RMAT 22) to 8, 16 and 32.

    python3 experiments/scaling_model.py build/ranks/ranks.jsonl [MIRRORS.jsonl]

MIRRORS.jsonl: lines of experiments/mirror_counts, for the weak-scaling
graphs (scale 20 + log2 P on P ranks) and the strong-scaling one (scale
22), at the rank counts run and those projected.

Measured, per run (kind, ranks, program): the job's kernel seconds (the
slowest rank's), and per rank the EDGEMAP seconds, bytes read, message
bytes (sent + received) and communication seconds, with the largest
message bytes of one EDGEMAP.

Message bytes are those of the kernel (each EDGEMAP's record counts what
was exchanged since the previous one ended, and "exchange" records the
steps that only exchanged, as WCC's label rounds); the result's gather
for the summary and --output, after the kernel, is shown apart, as
writing the output would be. The counters count what crosses a rank's
link each way as the collective's bandwidth-optimal algorithm moves it
(an all-reduce of b bytes: 2 (P - 1) / P x b each way).

The model (weak scaling: every machine keeps one 2^20-vertex share of the
graph and the edges into it), per program, from the runs' byte counts
(exact whatever the machine) and the one-rank run's rates (one rank on an
uncontended core). Whatever a rank reads, sends or holds per vertex of
the whole graph (O(V) per rank: a sample file over every vertex, a
frontier's bitmap, an array over all ids) grows with P, so each is
extrapolated linearly in P from the two largest rank counts run:
  compute(P) = (kernel seconds at 1 rank, the median of the rounds run) x work(P), where
               work is the most-loaded rank's bytes read over the one
               rank's: the ranks' mean, growing as it grew between those
               two counts (never falling), times the most-loaded rank's
               share over the mean at the most ranks run (ranges balance
               vertices + in-edges);
  messages(P) = the most-loaded rank's bytes over the kernel in its busier
               direction (links are full duplex: 25 Gb/s each way), in two
               parts, as the runs' records split them:
               - the frontiers' (bitmaps of V bits a dense level, or the
                 members' ids): extrapolated linearly, as V = P x 2^20;
               - the rest, keyed by mirrors (the values and labels an
                 exchange sends per mirror a rank reads, or per (own
                 vertex, reading rank) pair it sends): scaled by the
                 most-loaded rank's mirrors (received) and read pairs
                 (sent) at P over those at the most ranks run, as
                 experiments/mirror_counts counts them on the graph P
                 machines would hold (MIRRORS.jsonl; without it, that part
                 is extrapolated linearly too, which overstates it: a
                 rank's mirrors grow more slowly than V, and never past
                 its in-edges); but the bytes that first tell each owner
                 which of its vertices a rank reads (a bitmap of the
                 owner's range or 4-byte offsets, the fewer: O(V) bits a
                 rank while the sets are dense) are taken as mirror_counts
                 computes them at P, not scaled;
  memory(P)  = what the first rank's run record says it holds (index,
               frontiers, bins, IO buffers, pull cache, the algorithm's
               arrays), extrapolated linearly: the arrays over all ids
               are O(V) per rank. Ranks that share this one machine's
               disk each hold their share of IO buffers (smaller
               requests, then fewer: engine/shared_drives.hpp); a
               machine of the model, one rank alone on its drives,
               holds them at 32 requests of 1 MiB: the IO buffers are
               scaled back up by (1 MiB x 32) / (request_bytes x
               queue_depth) (an upper bound where a part's edge bytes
               cap its buffers);
  comm(P)    = messages(P) / link bandwidth
               + collectives x ceil(log2 P) x 5 us latency (the collective
               calls counted at the most ranks run);
  T(P) = compute(P) + comm(P), reported as T(P) / T(1).
No overlap of communication with compute is assumed; the last column says
what T(128) / T(1) on 25 Gb/s would be if every exchange were hidden
behind compute (max instead of sum), the most an overlap could gain.

The strong-scaling model (one graph on P machines) is the same sum, from
the one-rank run of that graph: the ranks' bytes read and their message
bytes, each summed over the ranks, are extrapolated linearly in P from the
two largest rank counts run (never falling: more ranks read more pieces
whole and hold more mirrors), shared out evenly and scaled by the most-
loaded rank's share at the most ranks run. It reports the speedup
T(1) / T(P) and the efficiency, speedup / P.
"""
import json
import math
import statistics
import sys
from collections import defaultdict

LATENCY = 5e-6          # seconds per collective step (a 25-100 Gb/s fabric)
LINKS = {"25 Gb/s": 25e9 / 8, "100 Gb/s": 100e9 / 8}


def one_rank_seconds(path):
    """The one-rank runs' kernel seconds, per program: the median over
    the rounds (the byte counts are the same in every round)."""
    seconds = defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        if r["kind"] == "weak" and r["ranks_run"] == 1 and r["record"] == "summary":
            seconds[r["program"]].append(r["seconds"])
    return {program: statistics.median(s) for program, s in seconds.items()}


# A rank's largest request and queue depth when it is alone on its
# machine's drives (io_service.hpp).
one_machine_request_bytes = 1 << 20
one_machine_queue_depth = 32


def load(path):
    runs = defaultdict(lambda: {"edgemaps": defaultdict(list), "summary": {}, "held": 0})
    for line in open(path):
        r = json.loads(line)
        if r.get("round", 1) != 1:
            continue
        key = (r["kind"], r["ranks_run"], r["program"])
        rank = r.get("rank", 0)
        if r["record"] in ("edgemap", "exchange"):
            runs[key]["edgemaps"][rank].append(r)
        elif r["record"] == "summary":
            runs[key]["summary"][rank] = r
        elif r["record"] == "run" and "memory" in r:
            held = r["memory"]["held"]
            alone = (one_machine_request_bytes * one_machine_queue_depth) / (
                r.get("request_bytes", one_machine_request_bytes) * r.get("queue_depth", one_machine_queue_depth))
            runs[key]["held"] = held["total"] + held["io_buffers"] * (alone - 1)
            runs[key]["vertices"] = r["vertices"]
    return runs


def load_mirrors(path):
    """(scale, ranks) -> per rank (mirrors, read pairs, bytes received and
    sent learning the mirrors), from mirror_counts' lines."""
    counts = {}
    if path:
        for line in open(path):
            r = json.loads(line)
            counts[(r["scale"], r["ranks"])] = (r["mirrors"], r["read_pairs"], r["set_received_bytes"], r["set_sent_bytes"])
    return counts


def check_mirrors(runs, mirrors):
    """The runs' summaries record each rank's mirrors: mirror_counts must
    agree with them wherever both have the graph, or its projections
    would not be of the graphs run."""
    checked = []
    for (kind, ranks, program), run in sorted(runs.items()):
        summaries = [run["summary"][r] for r in sorted(run["summary"])]
        if ranks < 2 or not summaries or "mirrors" not in summaries[0]:
            continue
        scale = summaries[0].get("scale")
        counted = mirrors.get((scale, ranks))
        if counted is None:
            continue
        recorded = [s["mirrors"] for s in summaries]
        if recorded != counted[0]:
            raise SystemExit(f"mirror counts differ at scale {scale}, {ranks} ranks ({program}): runs {recorded}, mirror_counts {counted[0]}")
        checked.append(f"{scale}/{ranks}")
    return sorted(set(checked))


def per_rank(run):
    rows = []
    for rank, steps in sorted(run["edgemaps"].items()):
        maps = [m for m in steps if m["record"] == "edgemap"]
        sent = sum(m.get("sent_bytes", 0) for m in steps)
        received = sum(m.get("received_bytes", 0) for m in steps)
        frontier_sent = sum(m.get("frontier_sent_bytes", 0) for m in steps)
        frontier_received = sum(m.get("frontier_received_bytes", 0) for m in steps)
        rows.append({
            "rank": rank,
            "edgemaps": len(maps),
            "exchanges": len(steps) - len(maps),
            "seconds": sum(m["seconds"] for m in maps),
            "exchange_seconds": sum(m["seconds"] for m in steps if m["record"] == "exchange"),
            "bytes_read": sum(m.get("bytes_read", 0) for m in maps),
            "message_bytes": sent + received,
            "link_bytes": max(sent, received),
            "frontier_sent": frontier_sent,
            "frontier_received": frontier_received,
            "keyed_sent": sent - frontier_sent,
            "keyed_received": received - frontier_received,
            "largest_message": max((m.get("sent_bytes", 0) + m.get("received_bytes", 0) for m in steps), default=0),
            "comm_seconds": sum(m.get("comm_seconds", 0) for m in steps),
            "collectives": sum(m.get("collectives", 0) for m in steps),
        })
        summary = run["summary"].get(rank, {})
        rows[-1]["mirrors"] = summary.get("mirrors")
        total = summary.get("sent_bytes", 0) + summary.get("received_bytes", 0)
        rows[-1]["result_bytes"] = max(0, total - rows[-1]["message_bytes"])
    return rows


def kernel_seconds(run):
    return max(s["seconds"] for s in run["summary"].values())


def projected_messages(rows_lo, rows_hi, lo, hi, p, counted_hi, counted_p, combine=max):
    """A rank's messages at P in its busier direction (combine=max over
    the ranks of each part, the most-loaded rank's) or all the ranks'
    (combine=sum): the frontiers' part linear in P, the part keyed by
    mirrors scaled by the mirror counts (received: mirrors; sent: read
    pairs), where both counts are known."""
    def linear(field):
        v_lo, v_hi = combine(r[field] for r in rows_lo), combine(r[field] for r in rows_hi)
        return v_hi + max(0.0, v_hi - v_lo) / (hi - lo) * (p - hi)

    def keyed(field, which):
        # Where the kernel learnt the mirrors (its records hold those
        # bytes: a program that exchanges no values never does), they are
        # taken out, the rest scaled, and the sets' bytes at P put back.
        if not (counted_hi and counted_p and combine(counted_hi[which])):
            return linear(field)
        measured = combine(r[field] for r in rows_hi)
        learnt = all(r["mirrors"] is not None for r in rows_hi)
        sets_hi = combine(counted_hi[2 + which]) if learnt else 0
        sets_p = combine(counted_p[2 + which]) if learnt else 0
        return max(0.0, measured - sets_hi) * combine(counted_p[which]) / combine(counted_hi[which]) + sets_p
    return max(linear("frontier_sent") + keyed("keyed_sent", 1), linear("frontier_received") + keyed("keyed_received", 0))


def main(path, mirrors_path=None):
    runs = load(path)
    t1_median = one_rank_seconds(path)
    mirrors = load_mirrors(mirrors_path)
    checked = check_mirrors(runs, mirrors)
    print("## Measured (one compute thread per rank; several ranks share this machine's 2 cores)\n")
    print("| kind | ranks | program | kernel s | per rank: EDGEMAP s | exchange steps s | bytes read (MB) | message bytes (MB) | largest per step (KB) | comm s | result gather (MB) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for key in sorted(runs, key=lambda k: (k[0], k[2], k[1])):
        kind, ranks, program = key
        rows = per_rank(runs[key])
        fmt = lambda f, scale, digits: " / ".join(f"{r[f] / scale:.{digits}f}" for r in rows)
        print(f"| {kind} | {ranks} | {program} | {kernel_seconds(runs[key]):.3f} | {fmt('seconds', 1, 3)} | {fmt('exchange_seconds', 1, 3)} | "
              f"{fmt('bytes_read', 1e6, 1)} | {fmt('message_bytes', 1e6, 2)} | {fmt('largest_message', 1e3, 1)} | {fmt('comm_seconds', 1, 3)} | {fmt('result_bytes', 1e6, 1)} |")

    # What a vertex costs against an edge (the ranges' alpha): PageRank's
    # vertex pass (the kernel less its EDGEMAPs) per vertex, against its
    # EDGEMAPs per edge, one rank.
    pr = runs.get(("weak", 1, "pagerank"))
    if pr:
        maps = pr["edgemaps"][0]
        edge_seconds = sum(m["seconds"] for m in maps)
        vertices, edges = 1 << 20, 16 << 20
        per_edge = edge_seconds / (len(maps) * edges) * 1e9
        per_vertex = (kernel_seconds(pr) - edge_seconds) / (len(maps) * vertices) * 1e9
        print(f"\nPageRank, one rank, scale 20: {per_edge:.2f} ns per edge in its EDGEMAPs, {per_vertex:.2f} ns per vertex "
              f"in its vertex passes: a vertex weighs {per_vertex / per_edge:.2f} edges")

    print("\n## Model: weak scaling, T(P) / T(1)\n")
    print("One rank's kernel seconds (median of the rounds): " + ", ".join(f"{p} {t:.3f}" for p, t in sorted(t1_median.items())) + "\n")
    if mirrors_path:
        print(f"Mirror counts ({mirrors_path}): " + ", ".join(f"scale {sc}, {r} ranks: {max(m):,} (most-loaded rank)"
                                                         for (sc, r), (m, *_) in sorted(mirrors.items()) if r > 1) +
              f"; equal to the runs' own at scale/ranks {', '.join(checked) or 'none run'}\n")
    print("| program | largest R run | work at R (bytes read, most-loaded rank / one rank) | messages per rank at R, busier direction (MB) | collectives | " +
          " | ".join(f"P={p}, {link}" for p in (8, 32, 128) for link in LINKS) + " | P=128, 25 Gb/s, all overlapped |")
    print("| --- | --- | --- | --- | --- | " + " | ".join("---" for _ in range(7)) + " |")
    memory_rows = []
    for program in sorted({k[2] for k in runs if k[0] == "weak"}):
        counts = sorted(r for k, r, p in runs if k == "weak" and p == program)
        if len(counts) < 3 or counts[0] != 1:
            continue
        one, low, high = (runs[("weak", r, program)] for r in (1, counts[-2], counts[-1]))
        lo, hi = counts[-2], counts[-1]
        t1 = t1_median[program]
        rows_hi = per_rank(high)
        one_read = per_rank(one)[0]["bytes_read"]
        mean_lo = statistics.mean(r["bytes_read"] for r in per_rank(low))
        mean_hi = statistics.mean(r["bytes_read"] for r in rows_hi)
        read_hi = max(r["bytes_read"] for r in rows_hi)
        imbalance = read_hi / mean_hi if mean_hi else 1.0
        work = read_hi / one_read if one_read else 1.0
        m_hi = max(r["link_bytes"] for r in rows_hi)
        scale_hi = high["summary"][0]["scale"]
        scale_at = lambda p: scale_hi - int(math.log2(hi)) + int(math.log2(p))
        collectives = max(r["collectives"] for r in rows_hi)
        cells = []
        for p in (8, 32, 128):
            messages = projected_messages(per_rank(low), rows_hi, lo, hi, p, mirrors.get((scale_hi, hi)), mirrors.get((scale_at(p), p)))
            grown = mean_hi + max(0.0, mean_hi - mean_lo) / (hi - lo) * (p - hi)
            work_p = imbalance * grown / one_read if one_read else 1.0
            for bandwidth in LINKS.values():
                comm = messages / bandwidth + collectives * math.ceil(math.log2(p)) * LATENCY
                cells.append(f"{(t1 * work_p + comm) / t1:.2f}")
            if p == 128:
                comm = messages / LINKS["25 Gb/s"] + collectives * math.ceil(math.log2(p)) * LATENCY
                overlapped = f"{max(t1 * work_p, comm) / t1:.2f}"
        print(f"| {program} | {hi} | {work:.2f} | {m_hi / 1e6:.1f} | {collectives} | " + " | ".join(cells) + f" | {overlapped} |")
        memory_rows.append((program, [runs[("weak", r, program)]["held"] for r in counts], lo, hi))

    print("\n## Model: memory per machine, weak scaling (GB; the first rank's run record)\n")
    print("| program | " + " | ".join(f"held at R={r}" for r in counts) + " | P=8 | P=32 | P=128 |")
    print("| --- | " + " | ".join("---" for _ in counts) + " | --- | --- | --- |")
    for program, held, lo, hi in memory_rows:
        slope = (held[-1] - held[-2]) / (hi - lo)
        projected = [held[-1] + slope * (p - hi) for p in (8, 32, 128)]
        print(f"| {program} | " + " | ".join(f"{h / 1e9:.3f}" for h in held) + " | " + " | ".join(f"{m / 1e9:.2f}" for m in projected) + " |")

    largest_graph(runs)
    strong_model(runs, mirrors)


# The cluster the largest graph is sized for: 32 machines of 64 GB, of
# which 4 GB go to the system, MPI and the process itself, with 2 NVMe
# drives of 3.84 TB each.
CLUSTER_MACHINES, MACHINE_BYTES, MACHINE_RESERVE, DRIVE_BYTES, DRIVES = 32, 64e9, 4e9, 3.84e12, 2
# On disk, a ranked layout with --transpose stores each edge 4 times (its
# part's CSR and CSC, the transpose's part's two), 4 bytes each on plain
# pages with 32-bit ids (RMAT 20 on 4 ranks: 268.5 MB of drive files for
# 16.8 M edges, 16.0 bytes an edge), 8 with 64-bit ids.
DISK_BYTES_PER_EDGE = {4: 16, 8: 32}


def largest_graph(runs):
    """Every rank holds its arrays over all vertex ids: its memory grows
    with V, whatever the machine count. From the weak-scaling runs, each
    program's bytes a vertex on every machine (the run record's held
    memory, the exchanges' and WCC's label agreement's included, fitted
    over the vertex counts run) and what does not grow with V (IO
    buffers, bins); the largest vertex count whose state fits one
    machine, and the most edges the cluster's drives hold."""
    rows = []
    for program in sorted({k[2] for k in runs if k[0] == "weak"}):
        counts = sorted(r for k, r, p in runs if k == "weak" and p == program)
        if len(counts) < 2:
            continue
        points = [(runs[("weak", r, program)]["vertices"], runs[("weak", r, program)]["held"]) for r in counts]
        (v0, h0), (v1, h1) = points[-2], points[-1]
        per_vertex = (h1 - h0) / (v1 - v0)
        fixed = h1 - per_vertex * v1
        vertices = (MACHINE_BYTES - MACHINE_RESERVE - fixed) / per_vertex
        id_bytes = 4 if vertices <= 2**32 else 8
        if id_bytes == 8:  # wider ids: the index and the arrays of ids grow; taken as is (a bound from above)
            vertices = min(vertices, 2**40)
        edges = CLUSTER_MACHINES * DRIVES * DRIVE_BYTES / DISK_BYTES_PER_EDGE[id_bytes]
        rows.append((program, per_vertex, fixed, vertices, edges))
    if not rows:
        return
    print(f"\n## Model: the largest graph on {CLUSTER_MACHINES} machines of {MACHINE_BYTES / 1e9:.0f} GB and "
          f"{DRIVES} NVMe drives of {DRIVE_BYTES / 1e12:.2f} TB each\n")
    print("| program | bytes a vertex, every machine | fixed per machine (MB) | most vertices (memory) | most edges (drives) |")
    print("| --- | --- | --- | --- | --- |")
    for program, per_vertex, fixed, vertices, edges in rows:
        print(f"| {program} | {per_vertex:.1f} | {fixed / 1e6:.0f} | {vertices / 1e9:.2f} G | {edges / 1e12:.1f} T |")


def strong_model(runs, mirrors):
    programs = sorted({k[2] for k in runs if k[0] == "strong"})
    rows = []
    for program in programs:
        counts = sorted(r for k, r, p in runs if k == "strong" and p == program)
        if len(counts) < 3 or counts[0] != 1:
            continue
        lo, hi = counts[-2], counts[-1]
        one, low, high = (per_rank(runs[("strong", r, program)]) for r in (1, lo, hi))
        t1 = kernel_seconds(runs[("strong", 1, program)])
        one_read = one[0]["bytes_read"]
        total = lambda rows, field: sum(r[field] for r in rows)
        share = lambda rows, field: max(r[field] for r in rows) / statistics.mean(r[field] for r in rows) if total(rows, field) else 1.0
        cells = []
        for p in (8, 16, 32):
            read = total(high, "bytes_read") + max(0.0, total(high, "bytes_read") - total(low, "bytes_read")) / (hi - lo) * (p - hi)
            scale = runs[("strong", hi, program)]["summary"][0]["scale"]
            sent = projected_messages(low, high, lo, hi, p, mirrors.get((scale, hi)), mirrors.get((scale, p)), combine=sum)
            compute = t1 * share(high, "bytes_read") * read / p / one_read
            collectives = max(r["collectives"] for r in high)
            for bandwidth in LINKS.values():
                t = compute + share(high, "link_bytes") * sent / p / bandwidth + collectives * math.ceil(math.log2(p)) * LATENCY
                cells.append(f"{t1 / t:.1f} ({t1 / t / p:.2f})")
        rows.append(f"| {program} | {t1:.3f} | {hi} | " + " | ".join(cells) + " |")
    if not rows:
        return
    print("\n## Model: strong scaling, speedup T(1) / T(P) (efficiency)\n")
    print("| program | one rank's kernel s | largest R run | " + " | ".join(f"P={p}, {link}" for p in (8, 16, 32) for link in LINKS) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in range(6)) + " |")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/ranks/ranks.jsonl", sys.argv[2] if len(sys.argv) > 2 else None)
