#!/usr/bin/env python3
"""Each problem's contenders side by side, from a results folder (or results.jsonl): the cells of one
experiment that differ only in tunables (any parameter but the problem's sizes) ran in the same rounds,
so their ratios are the comparison to read. For each problem, in the order the run measured them: each
cell's backend, tunables, median kernel time in microseconds with its 95% interval, and its ratio to the
problem's first cell. Cells that failed say why; cells whose output did not verify are marked.
The ratio is of the two medians: a quick table. The report's speedups, paired round by round with their own
intervals (docs/results.md, "Sampling", 6), are the figures to cite.

This is the table the GPU machine's call scripts print (reports/2026-11-26-h100/experiments, each call's
summary.txt): a variant, given as a tunable, against the committed kernel in the same rounds.

    scripts/tunable-ratios.py reports/<machine>/<run> [more runs ...]   # results.jsonl or results.jsonl.xz
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_file import records  # noqa: E402

# Parameters that name the problem (crates/core/src/problem.rs, Problem::from_params); every other
# parameter is a tunable of a contender.
SIZES = (
    "width", "height", "window", "radius", "dtype",  # box-filter, conv2d
    "size", "batch",  # fft
    "n", "m",  # conv1d
    "channels", "taps", "block", "mu", "echo_taps", "snr_db",  # lms
)


def microseconds(ms):
    return f"{ms * 1000:.2f}" if ms is not None else "?"


def problems(rows):
    grouped = {}
    for r in rows:
        params = r.get("params", {})
        key = (r.get("experiment"), r.get("workload"), tuple((k, params[k]) for k in SIZES if k in params))
        grouped.setdefault(key, []).append(r)
    return grouped


def describe(r):
    params = r.get("params", {})
    tunables = ",".join(f"{k}={v}" for k, v in sorted(params.items()) if k not in SIZES) or "-"
    return f"{r.get('backend')} {r.get('variant')} {tunables}"


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for path in paths:
        print(f"== {path}")
        for (_, workload, sizes), cells in problems(records("tunable-ratios", path)).items():
            base = None
            parts = []
            for r in cells:
                kernel = r.get("kernel_ms") or {}
                if not kernel.get("median"):
                    parts.append(f"{describe(r)} {r.get('status')}: {r.get('reason') or 'no time'}")
                    continue
                median = kernel["median"]
                base = base or median
                mark = "" if r.get("verified") else " UNVERIFIED"
                parts.append(
                    f"{describe(r)} {microseconds(median)} us "
                    f"[{microseconds(kernel.get('ci_low'))}-{microseconds(kernel.get('ci_high'))}] "
                    f"x{median / base:.3f}{mark}"
                )
            label = " ".join(f"{k}={v}" for k, v in sizes)
            print(f"{workload} {label}: " + " | ".join(parts))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except BrokenPipeError:  # a reader such as head closed the pipe
        sys.stderr.close()
