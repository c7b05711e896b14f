#!/usr/bin/env python3
"""OpenCL / CUDA ratios from a results folder of scenarios/opencl-cuda.yaml (or any run with both
backends): for each problem (experiment and parameters), each backend's best own variant (lowest
median kernel time; `vendor` is the peer, not a contender), OpenCL / CUDA, and cuFFT / ours where
cuFFT ran. Intervals combine the two medians' 95% intervals conservatively (low / high, high / low).
Each backend's launch floor (an empty launch's device time, machine.json) heads the list, and a cell
within three times a floor says how many floors it takes: there the ratio compares launch overheads.
Where the run also measured CUDA's cell as its OpenCL twin runs (in an experiment of its own: launched
plainly, tunable `pdl: off`, since NVIDIA's OpenCL has no programmatic dependent launches; the f32 box
filter's plain fused kernel, `f32_form: fused`, since NVIDIA's 48 KiB of local memory hold no ring of
input rows), the line adds OpenCL / that cell, the twins alike.

    scripts/opencl-cuda-ratios.py reports/<machine>/<run>   # reads results.jsonl or results.jsonl.xz
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_file import records  # noqa: E402


# CUDA's tunables that run a cell as its OpenCL twin runs, and their values.
TWIN_FORMS = {"pdl": "off", "f32_form": "fused"}


def timed(folder):
    """The run's cells that measured a kernel time."""
    return (r for r in records("opencl-cuda-ratios", folder) if r.get("status") == "ok" and r.get("kernel_ms"))


def ratio(num, den):
    a, b = num["kernel_ms"], den["kernel_ms"]
    return a["median"] / b["median"], a["ci_low"] / b["ci_high"], a["ci_high"] / b["ci_low"]


def interval(num, den):
    return "{:.3f} [{:.3f}-{:.3f}]".format(*ratio(num, den))


def launch_floors(folder):
    """{(backend, device name): (floor us, interval or None)} from the run's machine.json."""
    path = os.path.join(folder, "machine.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        machine = json.load(f)
    floors = {}
    for backend in machine.get("backends", []):
        details = backend.get("details", {})
        for i, name in enumerate(backend.get("devices", [])):
            floor = details.get(f"device{i}.launch_floor_us")
            if floor is not None:
                floors[(backend["name"], name)] = (float(floor), details.get(f"device{i}.launch_floor_us_interval"))
    return floors


def floor_of(floors, record):
    """The floor of the device a record ran on (its name ends the backend's device name)."""
    for (backend, name), floor in floors.items():
        if backend == record["backend"] and name.endswith(record.get("device") or "\0"):
            return floor
    return None


def main(folder):
    floors = launch_floors(folder)
    for (backend, name), (us, interval_us) in sorted(floors.items()):
        print(f"launch floor {backend} {name}: {us:.2f} [{interval_us}] us" if interval_us else
              f"launch floor {backend} {name}: {us:.2f} us")
    problems = {}
    plain = {}
    for r in timed(folder):
        if any(r["params"].get(name) == value for name, value in TWIN_FORMS.items()):
            rest = {k: v for k, v in r["params"].items() if k not in TWIN_FORMS}
            plain[(r["backend"], r["workload"], r["variant"], json.dumps(rest, sort_keys=True))] = r
            continue
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
        twin = plain.get(("cuda", cuda["workload"], cuda["variant"], params))
        if twin:
            line += f" | cuda as the twin {twin['kernel_ms']['median']:.4g} ocl/cuda-twin {interval(opencl, twin)}"
        vendor = cells.get(("cuda", "vendor"))
        if vendor:
            line += f" | cuFFT {vendor['kernel_ms']['median']:.4g} cuFFT/ours {interval(vendor, cuda)}"
        near = []
        for name, r in (("cuda", cuda), ("opencl", opencl)):
            floor = floor_of(floors, r)
            if floor and r["kernel_ms"]["median"] * 1e3 < 3 * floor[0]:
                near.append(f"{name} {r['kernel_ms']['median'] * 1e3 / floor[0]:.2f} floors")
        if near:
            line += " | near the launch floor: " + ", ".join(near)
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
