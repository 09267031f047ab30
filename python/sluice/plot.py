"""Draws `sluice sweep` CSV output: per algorithm, time, time relative to
the best λ, and bytes read against the skipping threshold λ, one line per
device (layout), each device's calibrated λ marked and its recommended λ
(the least geometric mean over the algorithms of the time relative to
each one's best) drawn and printed; a note where the repeats spread more
than λ moves the median; and, for devices with a calibration profile,
the measured cost of a request against its size with the fitted
t(s) = t0 + s / B that λ = t0 * B comes from.

    sluice plot sweep.csv -o sweep.png        (or: python3 -m sluice.plot ...)

Needs matplotlib (Debian: python3-matplotlib; pip: sluice[plot]).
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from collections import defaultdict
from statistics import median
from typing import Optional, Sequence


def read_runs(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"{path}: no runs (is it the --output of sluice sweep?)")
    for column in ("graph", "device", "algorithm", "skip_threshold", "seconds", "bytes_read"):
        if column not in rows[0]:
            raise SystemExit(f"{path}: no column '{column}' (is it the --output of sluice sweep?)")
    return rows


def read_profile(path):
    """The measured points of a device profile: (bytes, seconds per request)."""
    points = []
    try:
        with open(path) as f:
            for line in f:
                words = line.split()
                if words and words[0] == "point":
                    size, iops = int(words[1]), float(words[2])
                    if iops > 0:
                        points.append((size, 1.0 / iops))
    except OSError:
        return []
    return points


def lambda_positions(values):
    """x positions on a log2 axis: 0 half a step left of the smallest
    positive λ, inf one step right of the largest."""
    finite = sorted({v for v in values if v not in (None, 0)})
    low = finite[0] / 2 if finite else 1024
    high = finite[-1] * 2 if finite else 1 << 20
    def at(v):
        if v is None:
            return high
        if v == 0:
            return low
        return v
    return at, low, high


def label_bytes(v):
    if v is None:
        return "inf"
    if v == 0:
        return "0"
    for unit, size in (("m", 1 << 20), ("k", 1 << 10)):
        if v >= size and v % size == 0:
            return f"{v // size}{unit}"
    return str(v)


def recommended_lambdas(rows, skip_bytes):
    """Per device: (λ, geometric mean of time relative to each algorithm's
    best, how sure the choice is) over the λ values every algorithm ran at."""
    medians = defaultdict(dict)  # (device, algorithm) -> {λ: median seconds}
    spread = defaultdict(float)  # device -> widest spread of one λ's repeats, over their median
    repeats = defaultdict(int)  # device -> fewest runs at one λ
    for key, group in _grouped(rows, skip_bytes).items():
        device, algorithm, skip = key
        seconds = [float(r["seconds"]) for r in group]
        medians[(device, algorithm)][skip] = median(seconds)
        if median(seconds) > 0:
            spread[device] = max(spread[device], (max(seconds) - min(seconds)) / median(seconds))
        repeats[device] = min(repeats[device] or len(seconds), len(seconds))
    result = {}
    for device in {d for d, _ in medians}:
        algorithms = [a for d, a in medians if d == device]
        common = set.intersection(*(set(medians[(device, a)]) for a in algorithms))
        scores = {}
        for skip in common:
            logs = [math.log(medians[(device, a)][skip] / min(medians[(device, a)].values()))
                    for a in algorithms if min(medians[(device, a)].values()) > 0]
            scores[skip] = math.exp(sum(logs) / len(logs)) if logs else 1.0
        if scores:
            ranked = sorted(scores, key=lambda s: (scores[s], math.inf if s is None else s))
            best = ranked[0]
            next_best = (label_bytes(ranked[1]), scores[ranked[1]] / scores[best]) if len(ranked) > 1 else None
            result[device] = (best, scores[best], how_sure(next_best, repeats[device], spread[device]))
    return result


def how_sure(next_best, repeats, widest_spread):
    """As sluice sweep says it: the next best λ must be slower than the
    repeats move one λ's time."""
    if next_best is None:
        return "the only λ run"
    lam, ratio = next_best
    if repeats < 2:
        return f"not sure: the next best, {lam}, takes {ratio:.2f}x, and one run per λ measures no noise (--repeat 3)"
    if ratio - 1 > widest_spread:
        return f"sure: the next best, {lam}, takes {ratio:.2f}x, more than the repeats differ (up to {100 * widest_spread:.0f}%)"
    return f"not sure: the next best, {lam}, takes {ratio:.2f}x, within what the repeats differ (up to {100 * widest_spread:.0f}%)"


def _grouped(rows, skip_bytes):
    groups = defaultdict(list)
    for r in rows:
        groups[((r["graph"], r["device"]), r["algorithm"], skip_bytes(r))].append(r)
    return groups


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(prog="sluice plot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="the --output of sluice sweep")
    parser.add_argument("-o", "--output", default="sweep.png", help="image to write (.png, .pdf, .svg)")
    parser.add_argument("--dpi", type=int, default=120, help="resolution of a .png")
    args = parser.parse_args(argv)
    rows = read_runs(args.csv)
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("sluice plot: needs matplotlib (Debian: python3-matplotlib; pip install matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def skip_bytes(row):
        return None if row["skip_threshold"] == "inf" else int(row["skip_threshold_bytes"])

    algorithms = sorted({r["algorithm"] for r in rows})
    devices = sorted({(r["graph"], r["device"]) for r in rows})
    at, low, high = lambda_positions([skip_bytes(r) for r in rows])
    profiles = {}
    for r in rows:
        if r.get("profile"):
            profiles[(r["graph"], r["device"])] = (r["profile"], float(r["request_cost_ns"]), float(r["bandwidth_bytes_per_s"]),
                                                   int(r["calibrated_skip_threshold"]))
    extra = 1 if profiles else 0
    fig, axes = plt.subplots(len(algorithms) + extra, 3, figsize=(16, 3.6 * (len(algorithms) + extra)), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    recommended = recommended_lambdas(rows, skip_bytes)
    verdicts = [f"recommended λ for {device[0]} ({device[1]}): {label_bytes(skip)} "
                f"(time {score:.2f}x each algorithm's best, geometric mean); {sure}"
                for device, (skip, score, sure) in sorted(recommended.items())]
    for line in verdicts:
        print(line)

    for i, algorithm in enumerate(algorithms):
        time_axis, relative_axis, bytes_axis = axes[i]
        noise = []
        for d, device in enumerate(devices):
            color = colors[d % len(colors)]
            runs = defaultdict(list)
            calibrated = set()
            for r in rows:
                if r["algorithm"] == algorithm and (r["graph"], r["device"]) == device:
                    runs[skip_bytes(r)].append(r)
                    if r["calibrated"] == "true":
                        calibrated.add(skip_bytes(r))
            if not runs:
                continue
            keys = sorted(runs, key=lambda v: math.inf if v is None else v)
            xs = [at(k) for k in keys]
            seconds = [median(float(r["seconds"]) for r in runs[k]) for k in keys]
            spread = [(seconds[j] - min(float(r["seconds"]) for r in runs[k]),
                       max(float(r["seconds"]) for r in runs[k]) - seconds[j]) for j, k in enumerate(keys)]
            read = [median(int(r["bytes_read"]) for r in runs[k]) / 1e6 for k in keys]
            skipped = [median(int(r["bytes_skipped"]) for r in runs[k]) / 1e6 for k in keys]
            label = f"{device[0]} ({device[1]})"
            time_axis.errorbar(xs, seconds, yerr=list(zip(*spread)), marker="o", color=color, label=label, capsize=3)
            best = min(seconds)
            relative_axis.plot(xs, [s / best if best > 0 else 1.0 for s in seconds], marker="o", color=color, label=label)
            widest = max(lo + hi for lo, hi in spread)
            if widest > max(seconds) - min(seconds) and any(len(runs[k]) > 1 for k in keys):
                noise.append(f"{device[1]}: repeats spread {widest:.3g} s > λ's effect {max(seconds) - min(seconds):.3g} s: noise")
            if device in recommended:
                for axis in (time_axis, relative_axis, bytes_axis):
                    axis.axvline(at(recommended[device][0]), color=color, linestyle="--", linewidth=1.2)
            bytes_axis.plot(xs, read, marker="o", color=color, label=f"{label} read")
            bytes_axis.plot(xs, skipped, marker="x", linestyle="--", color=color, label=f"{label} skipped")
            for k in calibrated:
                j = keys.index(k)
                time_axis.plot([xs[j]], [seconds[j]], marker="*", markersize=16, color=color, linestyle="none")
                time_axis.axvline(xs[j], color=color, linestyle=":", linewidth=1)
                bytes_axis.axvline(xs[j], color=color, linestyle=":", linewidth=1)
        ticks = sorted({at(skip_bytes(r)) for r in rows})
        tick_labels = {at(skip_bytes(r)): label_bytes(skip_bytes(r)) for r in rows}
        titles = {time_axis: "time", relative_axis: "time relative to the best λ", bytes_axis: "bytes read and skipped"}
        for axis, ylabel in ((time_axis, "seconds (median, min-max)"), (relative_axis, "x the best λ's median (1 = best)"),
                             (bytes_axis, "MB")):
            axis.set_xscale("log", base=2)
            axis.set_xticks(ticks)
            axis.set_xticklabels([tick_labels[t] for t in ticks], rotation=45)
            axis.set_xlabel("skip threshold λ (bytes; ★ calibrated, -- recommended)")
            axis.set_ylabel(ylabel)
            axis.set_title(f"{algorithm}: {titles[axis]}")
            axis.grid(alpha=0.3)
            # From 0, so that a difference looks as large as it is; the
            # relative panel from 1, the best λ, which is its floor.
            axis.set_ylim(bottom=1 if axis is relative_axis else 0)
        if noise:
            time_axis.text(0.02, 0.02, "\n".join(noise), transform=time_axis.transAxes, fontsize=7, color="darkred", va="bottom")
            for line in noise:
                print(f"note: {algorithm} on {line}")
        time_axis.legend(fontsize=7)
        relative_axis.legend(fontsize=7)
        bytes_axis.legend(fontsize=7)

    if profiles:
        fit_axis, note_axis, spare_axis = axes[-1]
        spare_axis.axis("off")
        for d, device in enumerate(devices):
            if device not in profiles:
                continue
            color = colors[d % len(colors)]
            path, t0_ns, bandwidth, threshold = profiles[device]
            points = read_profile(path)
            if points:
                fit_axis.plot([p[0] for p in points], [p[1] * 1e6 for p in points], "o", color=color,
                              label=f"{device[1]} measured")
            sizes = [4096 * 2 ** k for k in range(9)]
            fit_axis.plot(sizes, [(t0_ns / 1e9 + s / bandwidth) * 1e6 for s in sizes], "-", color=color,
                          label=f"{device[1]} fit: t0 {t0_ns / 1e3:.1f} µs, B {bandwidth / 1e6:.0f} MB/s, λ {label_bytes(threshold)}")
            fit_axis.axvline(threshold, color=color, linestyle=":", linewidth=1)
        fit_axis.set_xscale("log", base=2)
        fit_axis.set_xlabel("read size (bytes)")
        fit_axis.set_ylabel("µs per request (1 / IOPS at the queue depth)")
        fit_axis.set_title("calibration: t(s) = t0 + s / B, λ = t0 · B")
        fit_axis.grid(alpha=0.3)
        fit_axis.legend(fontsize=7)
        note_axis.axis("off")
        note_axis.text(0, 0.5, "\n".join(f"{g} ({dev}): profile {profiles[(g, dev)][0]}" for g, dev in devices
                                         if (g, dev) in profiles), fontsize=7, va="center")

    # The recommendations above every panel, as the text says them.
    fig.suptitle("\n".join(verdicts), fontsize=9, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.22 * len(verdicts) / fig.get_figheight()))
    fig.savefig(args.output, dpi=args.dpi)
    print(f"wrote {args.output}: {len(algorithms)} algorithm(s), {len(devices)} device(s), {len(rows)} runs")


if __name__ == "__main__":
    main(sys.argv[1:])
