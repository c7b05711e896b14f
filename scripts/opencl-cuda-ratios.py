#!/usr/bin/env python3
"""OpenCL / CUDA ratios from a results folder of scenarios/opencl-cuda.yaml (or any run with both
backends): for each problem (experiment and parameters), each backend's best own variant (lowest
median kernel time; `vendor` is the peer, not a contender), OpenCL / CUDA, and cuFFT / ours where
cuFFT ran. Intervals combine the two medians' 95% intervals conservatively (low / high, high / low).

    scripts/opencl-cuda-ratios.py reports/<machine>/<run>   # reads results.jsonl or results.jsonl.xz
"""
import json
import lzma
import os
import sys


def records(folder):
    plain = os.path.join(folder, "results.jsonl")
    opener = (lambda: open(plain, encoding="utf-8")) if os.path.exists(plain) else (
        lambda: lzma.open(plain + ".xz", "rt", encoding="utf-8"))
    with opener() as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("status") == "ok" and record.get("kernel_ms"):
                yield record


def ratio(num, den):
    a, b = num["kernel_ms"], den["kernel_ms"]
    return a["median"] / b["median"], a["ci_low"] / b["ci_high"], a["ci_high"] / b["ci_low"]


def interval(num, den):
    return "{:.3f} [{:.3f}-{:.3f}]".format(*ratio(num, den))


def main(folder):
    problems = {}
    for r in records(folder):
        key = (r["experiment"], json.dumps(r["params"], sort_keys=True))
        # A later record of the same cell (a later pass) replaces an earlier one.
        problems.setdefault(key, {})[(r["backend"], r["variant"])] = r
    def order(item):
        (experiment, params), _ = item
        values = json.loads(params)
        return experiment, [(k, str(values[k]).rjust(12)) for k in sorted(values, reverse=True)]

    for (experiment, params), cells in sorted(problems.items(), key=order):
        best = {}
        for (backend, variant), r in cells.items():
            if variant == "vendor":
                continue
            if backend not in best or r["kernel_ms"]["median"] < best[backend]["kernel_ms"]["median"]:
                best[backend] = r
        if "cuda" not in best or "opencl" not in best:
            continue
        cuda, opencl = best["cuda"], best["opencl"]
        line = (f"{experiment} {params} cuda {cuda['variant']} {cuda['kernel_ms']['median']:.4g} | opencl "
                f"{opencl['variant']} {opencl['kernel_ms']['median']:.4g} | ocl/cuda {interval(opencl, cuda)}")
        vendor = cells.get(("cuda", "vendor"))
        if vendor:
            line += f" | cuFFT {vendor['kernel_ms']['median']:.4g} cuFFT/ours {interval(vendor, cuda)}"
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
