#!/usr/bin/env python3
"""Times the GPU peers of dspbench on the same workloads and writes their records in dspbench's
results.jsonl schema (docs/results.md), so `dspbench report` shows them beside dspbench's own.

Peers: cuFFT (through CuPy), CuPy / cupyx.scipy (signal, ndimage), PyTorch conv1d (cuDNN).
Timing: data resident on the device, CUDA events around each call (which includes the library's
launch overhead), median of --repetitions after --warmup calls. Missing libraries are reported and
their peers skipped with that reason, never silently.

Usage: python3 scripts/peers/gpu_peers.py --out reports/<run>/peers-gpu [--quick]
"""
import argparse
import json
import math
import os
import platform
import sys
import time
from datetime import datetime, timezone

SCHEMA = 1


def summary(times):
    s = sorted(times)
    n = len(s)
    median = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    dev = sorted(abs(t - median) for t in s)
    mad = dev[n // 2] if n % 2 else 0.5 * (dev[n // 2 - 1] + dev[n // 2])
    return {"median": median, "min": s[0], "max": s[-1], "mad": mad, "mean": sum(s) / n, "n": n}


def counts(workload, p):
    """Operation and byte counts, the same formulas as dspbench's Problem::flops/bytes."""
    if workload == "conv1d":
        n, m = p["n"], p["m"]
        return 2.0 * n * m, 4.0 * (n + m + n + m - 1)
    if workload == "box-filter":
        px, size = p["width"] * p["height"], 1 if p["dtype"] == "u8" else 4
        return float(px * p["window"] ** 2), 2.0 * px * size
    if workload == "conv2d":
        px, size, taps = p["width"] * p["height"], 1 if p["dtype"] == "u8" else 4, (2 * p["radius"] + 1) ** 2
        return 2.0 * px * taps, float(2 * px * size + 4 * taps)
    if workload == "fft":
        size, batch = p["size"], p["batch"]
        return (5.0 * size * math.log2(size) * batch if size > 1 else 0.0), 16.0 * size * batch
    raise ValueError(workload)


class Sink:
    def __init__(self, out_dir, device_name):
        os.makedirs(out_dir, exist_ok=True)
        self.path = os.path.join(out_dir, "results.jsonl")
        self.file = open(self.path, "a")
        self.device = device_name

    def record(self, workload, library, function, params, times_ms=None, reason=None):
        flops, nbytes = counts(workload, params)
        rec = {
            "schema": SCHEMA, "scenario": "gpu-peers", "experiment": 0, "experiment_title": "GPU peers",
            "workload": workload, "variant": function, "backend": library, "device": self.device,
            "params": params, "status": "ok" if times_ms else "skipped",
            "reason": reason if reason else "peer: timed by scripts/peers/gpu_peers.py, not verified by dspbench",
            "isa": None, "threads": None, "exec": {"peer": "true"}, "seed": 0, "warmup": 0,
            "samples": len(times_ms or []), "kernel_ms": summary(times_ms) if times_ms else None,
            "kernel_clock": "device" if times_ms else None, "wall_ms": None, "transfer_ms": None, "plan_ms": None,
            "verified": False, "verification": None, "max_abs_err": None, "max_rel_err": None,
            "flops": flops, "bytes": nbytes, "gflops": None, "gbps": None, "times_ms": times_ms or [],
            "finished": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        if times_ms:
            med_s = rec["kernel_ms"]["median"] * 1e-3
            rec["gflops"], rec["gbps"] = flops / med_s / 1e9, nbytes / med_s / 1e9
            print(f"{library:>6} {function:<16} {workload:<10} {json.dumps(params, sort_keys=True)}: "
                  f"{rec['kernel_ms']['median']:.4f} ms (median of {len(times_ms)})", flush=True)
        else:
            print(f"{library:>6} {function:<16} {workload:<10} skipped: {reason}", flush=True)
        self.file.write(json.dumps(rec) + "\n")
        self.file.flush()


def event_times(cp, fn, warmup, reps):
    """CUDA-event times (ms) of `fn()` on the current stream."""
    for _ in range(warmup):
        fn()
    cp.cuda.get_current_stream().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="folder whose results.jsonl the records are appended to")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--repetitions", type=int, default=50)
    ap.add_argument("--quick", action="store_true", help="the smaller sizes only")
    args = ap.parse_args()
    try:
        import cupy as cp
        from cupyx.scipy import ndimage, signal
    except Exception as e:  # noqa: BLE001 - any import failure means the peer is not there
        print(f"CuPy is not available ({e}); no GPU peers can be timed", file=sys.stderr)
        return 2
    props = cp.cuda.runtime.getDeviceProperties(0)
    device = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    sink = Sink(args.out, device)
    rng = cp.random.default_rng(42)
    T = lambda fn: event_times(cp, fn, args.warmup, args.repetitions)  # noqa: E731

    # FFT: cuFFT through CuPy (the plan is cached after the first call, as a library user gets it).
    ffts = [(65536, 1), (1024, 64), (1 << 20, 1), (1024, 1024), (1024, 16384)]
    if not args.quick:
        ffts.append((1 << 24, 1))
    for size, batch in ffts:
        z = (rng.random((batch, size), dtype=cp.float32) + 1j * rng.random((batch, size), dtype=cp.float32)).astype(cp.complex64)
        sink.record("fft", "cufft", "cupy.fft.fft", {"size": size, "batch": batch}, T(lambda: cp.fft.fft(z, axis=-1)))

    # conv1d, full output.
    try:
        import torch
        torch_reason = None
    except Exception as e:  # noqa: BLE001
        torch, torch_reason = None, f"PyTorch not available: {e}"
    for n, ms in [(1_000_000, [8, 64, 512]), (10_000, [8, 512])]:
        for m in ms:
            x = rng.random(n, dtype=cp.float32) * 2 - 1
            h = rng.random(m, dtype=cp.float32) * 2 - 1
            p = {"n": n, "m": m}
            sink.record("conv1d", "cupy", "convolve-direct", p, T(lambda: signal.convolve(x, h, mode="full", method="direct")))
            if n == 1_000_000:
                sink.record("conv1d", "cupy", "fftconvolve", p, T(lambda: signal.fftconvolve(x, h, mode="full")))
            if torch is None:
                sink.record("conv1d", "torch", "conv1d", p, reason=torch_reason)
                continue
            # conv1d in PyTorch is a correlation: flip the filter; padding m-1 gives the full output.
            tx = torch.as_tensor(x, device="cuda").view(1, 1, -1)
            th = torch.flip(torch.as_tensor(h, device="cuda"), [0]).view(1, 1, -1)
            torch.backends.cudnn.benchmark = True
            fn = lambda: torch.nn.functional.conv1d(tx, th, padding=m - 1)  # noqa: E731
            sink.record("conv1d", "torch", "conv1d", p, T(fn))

    # Box filter: mean over a window, replicate border.
    for dtype in ["f32", "u8"]:
        img = (rng.random((1024, 1024), dtype=cp.float32) * (255 if dtype == "u8" else 1)).astype(cp.uint8 if dtype == "u8" else cp.float32)
        for window in [5, 9, 15]:
            p = {"width": 1024, "height": 1024, "window": window, "dtype": dtype}
            sink.record("box-filter", "cupy", "uniform_filter", p, T(lambda: ndimage.uniform_filter(img, size=window, mode="nearest")))

    # conv2d: filter2D semantics are a correlation with a replicate border.
    for dtype in ["u8", "f32"]:
        img = (rng.random((2500, 4000), dtype=cp.float32) * (255 if dtype == "u8" else 1)).astype(cp.uint8 if dtype == "u8" else cp.float32)
        for radius in [1, 2, 3, 4]:
            k = rng.random((2 * radius + 1, 2 * radius + 1), dtype=cp.float32)
            k /= k.sum()
            p = {"width": 4000, "height": 2500, "radius": radius, "dtype": dtype}
            sink.record("conv2d", "cupy", "ndimage.correlate", p, T(lambda: ndimage.correlate(img, k, mode="nearest")))

    print(f"wrote {sink.path} ({platform.node()}, {device})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
