"""dspbench's peer worker: runs the libraries a user would pick instead of dspbench (NumPy, SciPy,
OpenCV, pyFFTW, CuPy, PyTorch) for the `peers` backend, one JSON request per line on stdin, one
JSON reply per line on stdout. The protocol is documented in docs/peers.md; the Rust side is
crates/peers/src/protocol.rs. Arrays travel as .npy files in a folder the backend owns.

The worker times its own library calls (perf_counter_ns on the CPU, CUDA events on the GPU), so
the pipe's latency and Python's start-up are never part of a sample.
"""
import importlib.util
import json
import os
import platform
import sys
import threading
import time

from peer import Refusal, distribution_version

PROTOCOL = 1


def cores():
    """CPUs this process may run on (a cgroup or taskset may give it fewer than the machine has)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# The longest `settle` waits: a library told to spin for ever (OMP_WAIT_POLICY=ACTIVE) must not
# stall the run; the record's `settle_ms` then shows it.
SETTLE_LIMIT_S = 0.2


def running_helper_threads():
    """How many threads of this process, other than the calling one, the scheduler has running or
    ready to run (state R in /proc); 0 where there is no /proc to read."""
    me = threading.get_native_id()
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 0
    running = 0
    for tid in tids:
        if int(tid) == me:
            continue
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # the thread ended meanwhile
        # The state follows the thread's name, which is in parentheses and may hold anything.
        if stat[stat.rindex(")") + 2] == "R":
            running += 1
    return running


def settle():
    """Waits until the library's own threads have stopped running, and returns the milliseconds
    that took. An OpenMP pool spins after each call (libgomp's default: about 9 ms of a core after
    pyFFTW on a 2-core VM) and in the runner's rounds took a core from the next contender."""
    start = time.perf_counter()
    while running_helper_threads() and time.perf_counter() - start < SETTLE_LIMIT_S:
        time.sleep(0.0002)
    return (time.perf_counter() - start) * 1e3


def gpu_probe():
    """The first CUDA device CuPy or PyTorch sees: (name, None), or (None, why there is none).
    Imports a GPU library only when one is installed: importing torch alone takes seconds."""
    reasons = []
    if importlib.util.find_spec("cupy") is not None:
        try:
            import cupy

            if cupy.cuda.runtime.getDeviceCount() > 0:
                name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
                return (name.decode() if isinstance(name, bytes) else str(name)), None
            reasons.append("CuPy sees no CUDA device")
        except Exception as e:  # noqa: BLE001 - a broken driver is a reason, not a crash
            reasons.append(f"CuPy cannot reach a CUDA device ({type(e).__name__}: {e})")
    if importlib.util.find_spec("torch") is not None:
        try:
            import torch

            if torch.cuda.is_available():
                return torch.cuda.get_device_name(0), None
            reasons.append("PyTorch sees no CUDA device")
        except Exception as e:  # noqa: BLE001
            reasons.append(f"PyTorch cannot reach a CUDA device ({type(e).__name__}: {e})")
    if not reasons:
        reasons.append("neither CuPy nor PyTorch is installed")
    return None, "; ".join(reasons)


def readiness(adapters):
    """Per variant: whether its package is installed (and, for GPU peers, a CUDA device is seen)."""
    gpu_name, gpu_reason = None, None
    if any(a.gpu for a in adapters.values()):
        gpu_name, gpu_reason = gpu_probe()
    out = {}
    for name, adapter in adapters.items():
        module = adapter.module
        if importlib.util.find_spec(module) is None:
            out[name] = {"ready": False, "reason": f"needs the Python package {adapter.package} "
                                                   f"(`import {module}` fails in {sys.executable}); "
                                                   f"pip install {adapter.package}"}
        elif adapter.gpu and gpu_name is None:
            out[name] = {"ready": False, "reason": f"runs on a CUDA GPU: {gpu_reason}"}
        else:
            top = module.partition(".")[0]
            out[name] = {"ready": True, "library": f"{top} {distribution_version(top)}"}
    return out, gpu_name, gpu_reason


def main():
    # The protocol owns the real stdout; anything a library prints goes to stderr instead, where
    # it cannot be mistaken for a reply.
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Imported only now: NumPy's import may print, and must not print into the protocol.
    from cpu_peers import CPU_PEERS
    from gpu_peers import GPU_PEERS

    adapters = {**CPU_PEERS, **GPU_PEERS}
    plans = {}

    def handle(request):
        op = request.get("op")
        if op == "hello":
            variants, gpu, gpu_reason = readiness(adapters)
            import numpy

            return {"protocol": PROTOCOL, "python": platform.python_version(), "executable": sys.executable,
                    "numpy": numpy.__version__, "cores": cores(), "variants": variants, "gpu": gpu,
                    "gpu_reason": gpu_reason}
        pid = request.get("id")
        if op == "plan":
            variant = request["variant"]
            if variant not in adapters:
                raise Refusal("input", f"the worker has no peer `{variant}`")
            adapter = adapters[variant]
            plan = adapter(request["problem"], request.get("threads"), cores())
            plans[pid] = plan
            return {"threads": plan.threads, "details": plan.details()}
        if pid not in plans:
            raise Refusal("device", f"no planned peer has id {pid} (op `{op}`)")
        plan = plans[pid]
        if op == "upload":
            import numpy

            arrays = {name: numpy.load(path) for name, path in request["inputs"].items()}
            return {"transfer_ms": plan.load(arrays)}
        if op == "run":
            calls = int(request["calls"])
            if calls < 1:
                raise Refusal("input", f"`calls` must be at least 1, got {calls}")
            return {"ms": plan.run(calls)}
        if op == "settle":
            return {"waited_ms": settle()}
        if op == "download":
            import numpy

            out, transfer_ms = plan.output()
            numpy.save(request["path"], numpy.ascontiguousarray(out))
            return {"shape": list(out.shape), "dtype": str(out.dtype), "transfer_ms": transfer_ms}
        if op == "free":
            del plans[pid]
            return {}
        raise Refusal("input", f"unknown op `{op}`")

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            try:
                request = json.loads(line)
            except ValueError as e:
                raise Refusal("input", f"a request must be one JSON object per line: {e}") from e
            reply = {"ok": True, **handle(request)}
        except Refusal as e:
            reply = {"ok": False, "kind": e.kind, "error": str(e)}
        except Exception as e:  # noqa: BLE001 - every failure of a library call is that cell's error
            reply = {"ok": False, "kind": "device", "error": f"{type(e).__name__}: {e}"}
        protocol.write(json.dumps(reply) + "\n")
        protocol.flush()


if __name__ == "__main__":
    main()
