#!/usr/bin/env python3
"""Checks `dspbench exec` against NumPy/SciPy on random data of arbitrary sizes.

Usage: python3 scripts/check_exec_numpy.py [--bin target/release/dspbench] [--backend scalar] [--rounds 3]
Needs numpy and scipy. Exits 1 on any disagreement, printing it.
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy import ndimage


def run_exec(binary, backend, workload, variant, inputs, params, out):
    cmd = [binary, "exec", workload, "--variant", variant, "--backend", backend, "--output", str(out)]
    for path in inputs:
        cmd += ["--input", str(path)]
    for key, value in params.items():
        cmd += ["--param", f"{key}={value}"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    return np.load(out)


def compare(name, got, want, atol, rtol=0.0):
    if got.shape != want.shape:
        return f"{name}: shape {got.shape}, expected {want.shape}"
    err = np.abs(got.astype(np.complex128 if np.iscomplexobj(got) else np.float64) - want)
    bound = atol + rtol * np.abs(want)
    bad = np.argwhere(err > bound)
    if bad.size:
        i = tuple(bad[0])
        return f"{name}: at {i} got {got[i]}, expected {want[i]} (error {err[i]:.3g} > {bound[i]:.3g})"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/dspbench")
    ap.add_argument("--backend", default="scalar")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    failures, checks = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for _ in range(args.rounds):
            n, m = int(rng.integers(1, 20000)), int(rng.integers(1, 700))
            x = rng.uniform(-1, 1, n).astype(np.float32)
            h = rng.uniform(-1, 1, m).astype(np.float32)
            np.save(d / "x.npy", x), np.save(d / "h.npy", h)
            want = np.convolve(x.astype(np.float64), h.astype(np.float64))
            scale = np.abs(x).max() * np.abs(h).sum()
            for variant in ["direct", "fft"]:
                got = run_exec(args.bin, args.backend, "conv1d", variant, [d / "x.npy", d / "h.npy"], {}, d / "y.npy")
                failures.append(compare(f"conv1d {variant} n={n} m={m}", got, want, 1e-5 * scale, 1e-5)); checks += 1

            w, hgt = int(rng.integers(1, 700)), int(rng.integers(1, 500))
            window = int(rng.integers(0, 12)) * 2 + 1
            img8 = rng.integers(0, 256, (hgt, w), dtype=np.uint8)
            imgf = rng.uniform(0, 1, (hgt, w)).astype(np.float32)
            np.save(d / "u8.npy", img8), np.save(d / "f32.npy", imgf)
            for variant in ["direct", "recursive"]:
                for name, img in [("u8", img8), ("f32", imgf)]:
                    mean = ndimage.uniform_filter(img.astype(np.float64), size=window, mode="nearest")
                    want = np.floor(mean + 0.5) if name == "u8" else mean
                    got = run_exec(args.bin, args.backend, "box-filter", variant, [d / f"{name}.npy"],
                                   {"window": window}, d / "b.npy")
                    tol = 0 if name == "u8" else 1e-5
                    failures.append(compare(f"box-filter {variant} {name} {w}x{hgt} m={window}", got, want, tol)); checks += 1

            radius = int(rng.integers(1, 9))
            k = rng.uniform(-1, 1, (2 * radius + 1, 2 * radius + 1)).astype(np.float32)
            k /= np.abs(k).sum()
            np.save(d / "k.npy", k)
            for name, img in [("u8", img8), ("f32", imgf)]:
                exact = ndimage.correlate(img.astype(np.float64), k.astype(np.float64), mode="nearest")
                want = np.clip(np.floor(exact + 0.5), 0, 255) if name == "u8" else exact
                got = run_exec(args.bin, args.backend, "conv2d", "direct", [d / f"{name}.npy", d / "k.npy"], {}, d / "c.npy")
                tol = 1 if name == "u8" else 1e-5 * np.abs(img).max()
                failures.append(compare(f"conv2d direct {name} {w}x{hgt} R={radius}", got, want, tol)); checks += 1

            batch = int(rng.integers(1, 5))
            for size, variants in [(2 ** int(rng.integers(0, 15)), ["recursive", "flow-graph", "vendor"]),
                                   (int(rng.integers(1, 5000)), ["vendor"])]:
                z = (rng.uniform(-1, 1, (batch, size)) + 1j * rng.uniform(-1, 1, (batch, size))).astype(np.complex64)
                np.save(d / "z.npy", z)
                want = np.fft.fft(z.astype(np.complex128), axis=-1)
                tol = 8 * np.finfo(np.float32).eps * (np.log2(size) + 2) * np.sqrt(size)
                for variant in variants:
                    got = run_exec(args.bin, args.backend, "fft", variant, [d / "z.npy"], {}, d / "f.npy")
                    failures.append(compare(f"fft {variant} {batch}x{size}", got, want, tol)); checks += 1
    failures = [f for f in failures if f]
    for f in failures:
        print("MISMATCH", f)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
