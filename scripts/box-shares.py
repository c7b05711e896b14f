#!/usr/bin/env python3
"""Each cell's share of its backend's copy bandwidth and of the copy of its own bytes, from a results folder
(what the box filter's GPU runs of sessions 28-31 printed inline in their call scripts): backend, dtype,
image, window, the form the cell asked for (`pdl` or `f32_form`, else -), kernel ms [95%], share of the roof, the copy of its bytes in GB/s
[95%], share of that copy, whether it was verified, and how it was launched (`exec.launch`).

    scripts/box-shares.py reports/<machine>/<run>   # reads results.jsonl or results.jsonl.xz
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_file import bad_input, records, results_path  # noqa: E402


def main(folder):
    results_path("box-shares", folder)
    if not os.path.isfile(os.path.join(folder, "machine.json")):
        bad_input("box-shares", f"no machine.json (the run's copy bandwidths) in {folder}")
    with open(os.path.join(folder, "machine.json"), encoding="utf-8") as f:
        machine = json.load(f)
    roof = {}
    for backend in machine["backends"]:
        for i, name in enumerate(backend.get("devices") or []):
            gbps = (backend.get("details") or {}).get(f"device{i}.copy_gbps")
            if gbps:
                roof[(backend["name"], name)] = float(gbps)
    print("roofs", roof)
    print("backend dtype image m form kernel_ms [95%] share_of_roof copy_of_bytes_gbps [95%] share_of_that_copy")
    for r in records("box-shares", folder):
        q = r["params"]
        if r["status"] != "ok":
            print(r["backend"], q, r["status"], r.get("reason"))
            continue
        km = r["kernel_ms"]
        gbps = r["bytes"] / (km["median"] * 1e6)
        copy = r.get("copy_of_bytes") or {}
        copy_gbps = copy.get("gbps", float("nan"))
        print(r["backend"], q.get("dtype"), f'{q["width"]}x{q["height"]}', q["window"], q.get("pdl", q.get("f32_form", "-")),
              f'{km["median"]:.5f}', f'[{km["ci_low"]:.5f}-{km["ci_high"]:.5f}]',
              f'{100 * gbps / roof.get((r["backend"], r["device"]), float("nan")):.1f}%',
              f'{copy_gbps:.0f} [{copy.get("gbps_low", 0):.0f}-{copy.get("gbps_high", 0):.0f}]',
              f'{100 * gbps / copy_gbps:.1f}%', "ok" if r.get("verified") else "UNVERIFIED",
              r["exec"].get("launch", ""))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        bad_input("box-shares", __doc__)
    main(sys.argv[1])
