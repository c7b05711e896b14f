#!/usr/bin/env python3
"""Times the CPU libraries a user would pick instead of dspbench, on the cells of
scenarios/cpu-peers.yaml, and appends the results to DIR/results.jsonl in dspbench's record format
(schema 1, docs/results.md), so that `dspbench report DIR` puts them beside dspbench's backends.

    python3 scripts/peers/cpu_peers.py --out DIR [--repetitions 50] [--time-budget 1.0] [--warmup 3]

Peers (each skipped, with the reason printed and recorded, when its module is missing):
  box-filter f32 1024 x 1024, m = 5, 9, 15   opencv  blur        (BORDER_REPLICATE)
  conv2d u8 4000 x 2500, R = 1..4            opencv  filter2D    (BORDER_REPLICATE, ddepth -1)
  conv1d N = 10^6, M = 512                   numpy   convolve    (full)
                                             scipy   oaconvolve  (full)
  fft c2c f32 1 x 65536, 64 x 1024           fftw    fftw-measure (pyFFTW, FFTW_MEASURE plan)

OpenCV is timed on one thread and on every core (its default), FFTW on one thread and on every
core; NumPy and SciPy convolve on one thread whatever is asked. Each record's params carry the
thread count, like dspbench's `threads` tunable.

The data is random (only sizes matter for time). Every timing is the wall time of one call,
outputs preallocated where the library takes an output array; the median of repeated calls after
warm-up calls is the headline, as in dspbench. Every output is checked against a float64
computation with NumPy/SciPy using dspbench's tolerances (crates/reference/src/tolerance.rs), so
records are `verified` like dspbench's own; `flops` and `bytes` follow Problem::flops/bytes.

Needs Python 3.8+ and NumPy; install the rest with
    pip install scipy opencv-python-headless pyfftw
"""
import argparse
import datetime
import importlib
import json
import math
import os
import sys
import time
from pathlib import Path

SCHEMA = 1
SCENARIO = "cpu-peers"
EPS = float(2.0**-23)  # f32::EPSILON, as the reference's tolerances use it

# The pip package behind each module, for the message when it is missing.
PACKAGES = {"numpy": "numpy", "scipy": "scipy", "cv2": "opencv-python-headless", "pyfftw": "pyfftw"}


def load(module):
    """The module, or None and why not."""
    try:
        return importlib.import_module(module), None
    except ImportError as e:
        package = PACKAGES[module.partition(".")[0]]
        return None, f"python module `{module}` is not installed ({e}); pip install {package}"


# ---------------------------------------------------------------------------------------------
# Problem counts: the same formulas as dspbench-core's Problem::flops and Problem::bytes.


def counts(workload, p):
    if workload == "conv1d":
        n, m = p["n"], p["m"]
        return 2.0 * n * m, 4.0 * (n + m + (n + m - 1))
    if workload == "box-filter":
        px, size = p["width"] * p["height"], 1 if p["dtype"] == "u8" else 4
        return float(px * p["window"] ** 2), 2.0 * px * size
    if workload == "conv2d":
        px, size, taps = p["width"] * p["height"], 1 if p["dtype"] == "u8" else 4, (2 * p["radius"] + 1) ** 2
        return 2.0 * px * taps, float(2 * px * size + 4 * taps)
    if workload == "fft":
        n, batch = p["size"], p["batch"]
        return (5.0 * n * math.log2(n) * batch if n > 1 else 0.0), 16.0 * n * batch
    raise ValueError(workload)


# ---------------------------------------------------------------------------------------------
# Verification: the reference's check, `|got - expected| <= atol + rtol |expected|` element-wise.


def verify(np, got, expected, atol, rtol):
    got = np.asarray(got)
    diff = np.abs(got.astype(np.complex128 if np.iscomplexobj(got) else np.float64) - expected)
    bound = atol + rtol * np.abs(expected)
    bad = np.flatnonzero(diff > bound)
    rel = diff / np.maximum(np.abs(expected), np.finfo(np.float64).tiny)
    first = None
    if bad.size:
        i = int(bad[0])
        first = f"at {i}: expected {expected.flat[i]}, got {got.flat[i]}"
    info = {
        "coverage": "full",
        "checked": int(expected.size),
        "total": int(expected.size),
        "atol": float(atol),
        "rtol": float(rtol),
        "first_mismatch": first,
    }
    return bad.size == 0, info, float(diff.max(initial=0.0)), float(rel.max(initial=0.0))


# ---------------------------------------------------------------------------------------------
# Timing


def measure(call, warmup, repetitions, budget_s):
    """Warm-up calls, then timed calls until `repetitions` or `budget_s` (never fewer than 3)."""
    for _ in range(warmup):
        call()
    times, spent = [], 0.0
    while len(times) < repetitions:
        start = time.perf_counter()
        call()
        elapsed = time.perf_counter() - start
        times.append(elapsed * 1e3)
        spent += elapsed
        if spent >= budget_s and len(times) >= min(3, repetitions):
            break
    return times


def summary(times):
    s = sorted(times)
    n = len(s)
    median = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    dev = sorted(abs(t - median) for t in s)
    mad = dev[n // 2] if n % 2 else 0.5 * (dev[n // 2 - 1] + dev[n // 2])
    return {"median": median, "min": s[0], "max": s[-1], "mad": mad, "mean": sum(s) / n, "n": n}


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model") and value.strip():
                return value.strip()
    except OSError:
        pass
    return "cpu"


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Recorder:
    """Appends records to DIR/results.jsonl, flushed one by one, and prints a line for each."""

    def __init__(self, out_dir, args, modules):
        out_dir.mkdir(parents=True, exist_ok=True)
        self.file = open(out_dir / "results.jsonl", "a", encoding="utf-8")
        self.args = args
        self.modules = modules
        self.device = cpu_model()

    def base(self, experiment, title, workload, backend, variant, params):
        flops, nbytes = counts(workload, params) if params else (0.0, 0.0)
        return {
            "schema": SCHEMA,
            "scenario": SCENARIO,
            "experiment": experiment,
            "experiment_title": title,
            "workload": workload,
            "variant": variant,
            "backend": backend,
            "device": self.device,
            "params": dict(sorted(params.items())),
            "status": "ok",
            "reason": None,
            "isa": None,
            "threads": params.get("threads"),
            "exec": {},
            "seed": self.args.seed,
            "warmup": self.args.warmup,
            "samples": 0,
            "kernel_ms": None,
            "kernel_clock": None,
            "wall_ms": None,
            "transfer_ms": None,
            "plan_ms": None,
            "verified": False,
            "verification": None,
            "max_abs_err": None,
            "max_rel_err": None,
            "flops": flops,
            "bytes": nbytes,
            "gflops": None,
            "gbps": None,
            "times_ms": [],
            "finished": "",
        }

    def write(self, record):
        record["finished"] = now()
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()
        p = " ".join(f"{k}={v}" for k, v in record["params"].items())
        if record["status"] == "ok":
            check = "verified" if record["verified"] else f"NOT VERIFIED ({record['reason']})"
            print(f"{record['workload']} {record['variant']} {record['backend']} [{p}]: "
                  f"{record['kernel_ms']['median']:.4g} ms (median of {record['samples']}) {check}", flush=True)
        else:
            print(f"{record['workload']} {record['variant']} {record['backend']} [{p}]: {record['status']}: "
                  f"{record['reason']}", flush=True)

    def measured(self, experiment, title, workload, backend, variant, params, call, output, check, exec_info,
                 plan_ms=None):
        """Times `call` (which leaves its result where `output()` reads it), checks it, records it."""
        record = self.base(experiment, title, workload, backend, variant, params)
        times = measure(call, self.args.warmup, self.args.repetitions, self.args.time_budget)
        passed, info, max_abs, max_rel = check(output())
        k = summary(times)
        record.update({
            "exec": {"peer": "true", **exec_info},
            "samples": len(times),
            "kernel_ms": k,
            "kernel_clock": "wall",
            "wall_ms": k,
            "plan_ms": plan_ms,
            "verified": passed,
            "verification": info,
            "max_abs_err": max_abs,
            "max_rel_err": max_rel,
            "gflops": record["flops"] / (k["median"] * 1e-3) / 1e9 if k["median"] > 0 else None,
            "gbps": record["bytes"] / (k["median"] * 1e-3) / 1e9 if k["median"] > 0 else None,
            "times_ms": times,
        })
        if info is None:
            record["reason"] = "peer: not verified by dspbench (no float64 check: scipy.ndimage is missing)"
        elif not passed:
            record["status"] = "mismatch"
            record["reason"] = f"peer output disagrees with the float64 check: {info['first_mismatch']}"
        self.write(record)

    def unavailable(self, experiment, title, workload, backend, reason):
        """The record dspbench writes for a backend that cannot run: one per experiment, variant `*`."""
        record = self.base(experiment, title, workload, backend, "*", {})
        record.update({"status": "unavailable", "reason": reason})
        self.write(record)


# ---------------------------------------------------------------------------------------------
# The peers, one function per workload. Each files its records under the experiment of
# scenarios/cpu-peers.yaml that times the same cells on every core (same index and title), so a
# report shows them in that experiment's table; the report also sets them beside every other
# experiment with the same problem (the one-thread ones).

BOX_FILTER = (0, "Box filter f32 1024 x 1024, simd on every core (peer: OpenCV blur)")
CONV2D = (2, "2-D convolution u8 10 MP, simd on every core (peer: OpenCV filter2D)")
CONV1D = (4, "1-D convolution N = 10^6, M = 512, simd on every core (peers: numpy.convolve, scipy oaconvolve)")
FFT = (6, "FFT c2c f32, simd on one thread (peer: FFTW MEASURE, one thread)")


def thread_counts():
    """One thread, and every core the process may use."""
    return sorted({1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1})


def box_filter(rec, np, ndimage, cv2, why):
    experiment, title = BOX_FILTER
    if cv2 is None:
        return rec.unavailable(experiment, title, "box-filter", "opencv", why)
    rng = np.random.default_rng(rec.args.seed)
    w = h = 1024
    image = rng.random((h, w), dtype=np.float32)
    dst = np.empty_like(image)
    largest = float(np.abs(image).max())
    for m in (5, 9, 15):
        # mode="nearest" is the replicate border.
        expected = None if ndimage is None else ndimage.uniform_filter(image.astype(np.float64), size=m, mode="nearest")
        atol = 8 * EPS * largest * math.sqrt(max(w, h)) + EPS * largest * m
        for threads in thread_counts():
            cv2.setNumThreads(threads)
            rec.measured(
                experiment, title, "box-filter", "opencv", "blur",
                {"width": w, "height": h, "window": m, "dtype": "f32", "threads": threads},
                lambda m=m: cv2.blur(image, (m, m), dst=dst, borderType=cv2.BORDER_REPLICATE),
                lambda: dst,
                lambda got, expected=expected, atol=atol: checked(np, got, expected, atol, 1e-6),
                {"library": f"opencv {cv2.__version__}", "call": "cv2.blur(src, (m, m), dst, BORDER_REPLICATE)"},
            )


def conv2d(rec, np, ndimage, cv2, why):
    experiment, title = CONV2D
    if cv2 is None:
        return rec.unavailable(experiment, title, "conv2d", "opencv", why)
    rng = np.random.default_rng(rec.args.seed)
    w, h = 4000, 2500
    image = rng.integers(0, 256, size=(h, w), dtype=np.uint8)
    dst = np.empty_like(image)
    for r in (1, 2, 3, 4):
        side = 2 * r + 1
        kernel = rng.random((side, side), dtype=np.float32)
        kernel /= kernel.sum(dtype=np.float32)
        expected = None
        if ndimage is not None:
            # filter2D correlates (no flip). As dspbench's reference does for u8 output, the check
            # compares with the exact value clamped to 0..255 before rounding.
            exact = ndimage.correlate(image.astype(np.float64), kernel.astype(np.float64), mode="nearest")
            expected = np.clip(exact, 0.0, 255.0)
        atol = 0.5 + 1e-5 * float(image.max()) * float(np.abs(kernel.astype(np.float64)).sum())
        for threads in thread_counts():
            cv2.setNumThreads(threads)
            rec.measured(
                experiment, title, "conv2d", "opencv", "filter2D",
                {"width": w, "height": h, "radius": r, "dtype": "u8", "threads": threads},
                lambda kernel=kernel: cv2.filter2D(image, -1, kernel, dst=dst, borderType=cv2.BORDER_REPLICATE),
                lambda: dst,
                lambda got, expected=expected, atol=atol: checked(np, got, expected, atol, 0.0),
                {"library": f"opencv {cv2.__version__}", "call": "cv2.filter2D(src, -1, k, dst, BORDER_REPLICATE)"},
            )


def conv1d(rec, np, signal, why):
    experiment, title = CONV1D
    rng = np.random.default_rng(rec.args.seed)
    n, m = 1_000_000, 512
    x = rng.uniform(-1.0, 1.0, n).astype(np.float32)
    h = rng.uniform(-1.0, 1.0, m).astype(np.float32)
    expected = np.convolve(x.astype(np.float64), h.astype(np.float64))
    atol = 1e-5 * float(np.abs(x).max()) * float(np.abs(h.astype(np.float64)).sum())
    params = {"n": n, "m": m, "threads": 1}
    result = {}
    peers = [("numpy", "convolve", np.__version__, "numpy.convolve(x, h)", lambda: np.convolve(x, h))]
    if signal is None:
        rec.unavailable(experiment, title, "conv1d", "scipy", why)
    else:
        version = rec.modules["scipy"].__version__
        peers.append(("scipy", "oaconvolve", version, "scipy.signal.oaconvolve(x, h)", lambda: signal.oaconvolve(x, h)))
    for backend, variant, version, call, run in peers:

        def timed(run=run):
            result["y"] = run()

        rec.measured(
            experiment, title, "conv1d", backend, variant, params, timed, lambda: result["y"],
            lambda got: checked(np, got, expected, atol, 1e-5),
            {"library": f"{backend} {version}", "call": call},
        )


def fft(rec, np, pyfftw, why):
    experiment, title = FFT
    if pyfftw is None:
        return rec.unavailable(experiment, title, "fft", "fftw", why)
    rng = np.random.default_rng(rec.args.seed)
    for size, batch in ((65536, 1), (1024, 64)):
        data = (rng.uniform(-1, 1, (batch, size)) + 1j * rng.uniform(-1, 1, (batch, size))).astype(np.complex64)
        expected = np.fft.fft(data.astype(np.complex128), axis=-1).reshape(-1)
        norm = float(np.sqrt((np.abs(data.astype(np.complex128)) ** 2).sum(axis=-1)).max())
        atol = 8 * EPS * (math.ceil(math.log2(size)) + 1) * norm
        for threads in thread_counts():
            a = pyfftw.empty_aligned((batch, size), dtype="complex64")
            b = pyfftw.empty_aligned((batch, size), dtype="complex64")
            start = time.perf_counter()
            plan = pyfftw.FFTW(a, b, axes=(-1,), direction="FFTW_FORWARD", flags=("FFTW_MEASURE",), threads=threads)
            plan_ms = (time.perf_counter() - start) * 1e3
            a[:] = data  # MEASURE planning overwrites the arrays: fill them after it
            rec.measured(
                experiment, title, "fft", "fftw", "fftw-measure", {"size": size, "batch": batch, "threads": threads},
                plan.execute, lambda b=b: b.reshape(-1),
                lambda got: checked(np, got, expected, atol, 0.0),
                {"library": f"pyfftw {pyfftw.__version__}", "call": "pyfftw.FFTW(a, b, FFTW_MEASURE).execute()"},
                plan_ms=plan_ms,
            )


def checked(np, got, expected, atol, rtol):
    """`verify`, or an unverified result when the reference could not be computed."""
    if expected is None:
        return False, None, None, None
    return verify(np, got, expected, atol, rtol)


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, type=Path, help="results folder; appends to OUT/results.jsonl")
    ap.add_argument("--warmup", type=int, default=3, help="untimed calls first (default 3)")
    ap.add_argument("--repetitions", type=int, default=50, help="the most timed calls per cell (default 50)")
    ap.add_argument("--time-budget", type=float, default=1.0, help="stop timing a cell after this many seconds")
    ap.add_argument("--seed", type=int, default=3, help="random data seed (sizes matter, not values)")
    args = ap.parse_args()
    if args.repetitions < 1 or args.warmup < 0 or args.time_budget <= 0:
        ap.error("--repetitions must be >= 1, --warmup >= 0, --time-budget > 0")

    np, why = load("numpy")
    if np is None:
        sys.exit(f"cpu_peers: {why}; NumPy is needed for every peer and every check")
    modules = {name: load(name) for name in ("scipy", "scipy.ndimage", "scipy.signal", "cv2", "pyfftw")}
    for name, (module, reason) in modules.items():
        print(f"{name}: {'found' if module else 'MISSING: ' + reason}")
    missing = [name for name, (module, _) in modules.items() if module is None]
    if modules["scipy.ndimage"][0] is None:
        print("without scipy.ndimage the image peers cannot be checked: their records stay unverified")

    rec = Recorder(args.out, args, {name: module for name, (module, _) in modules.items()})
    box_filter(rec, np, rec.modules["scipy.ndimage"], *modules["cv2"])
    conv2d(rec, np, rec.modules["scipy.ndimage"], *modules["cv2"])
    conv1d(rec, np, *modules["scipy.signal"])
    fft(rec, np, *modules["pyfftw"])
    if missing:
        print(f"cpu_peers: missing {', '.join(missing)}; the peers that need them are recorded as unavailable")


if __name__ == "__main__":
    main()
