"""What every peer adapter shares: importing its library (a failure is a refusal with the reason,
not a crash), the thread count, the clock around the timed calls, and the record's details."""
import importlib
import time


class Refusal(Exception):
    """A request the worker will not serve; `kind` (`input`, `unsupported`, `device`) says what it
    means for the run, as dspbench's error kinds do."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def distribution_version(module):
    """The installed version of the package behind `module`, read without importing it."""
    from importlib import metadata

    names = {"cv2": ["opencv-python-headless", "opencv-python", "opencv-contrib-python-headless",
                     "opencv-contrib-python"],
             "cupy": ["cupy", "cupy-cuda12x", "cupy-cuda13x", "cupy-cuda11x"]}.get(module, [module])
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "unknown version"


def need(module, package):
    """Imports `module`; a missing or broken package refuses the plan with why and what to install."""
    try:
        return importlib.import_module(module)
    except Exception as e:  # noqa: BLE001 - a package that fails to import is as missing as an absent one
        raise Refusal("unsupported", f"needs the Python package {package}: `import {module}` failed "
                                     f"({type(e).__name__}: {e}); pip install {package}") from e


def wall_ms(fn, calls):
    """Milliseconds of `calls` back-to-back calls of `fn` on the CPU's monotonic clock. The loop
    costs ~50 ns a call, far below any library call it times."""
    start = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    return (time.perf_counter_ns() - start) / 1e6


class Peer:
    """One planned library call for one problem. Subclasses set the class attributes and write
    `prepare`, `load`, `timed` (the call a sample times), and `result` (the output, converted to the
    workload's type outside the timed call where the library's differs)."""

    workload = None
    module = None  # what is imported
    package = None  # what `pip install` needs
    gpu = False
    threaded = False  # whether the library honours a thread count
    call = None  # the library call, as the record shows it
    converts = None  # what the adapter does outside the timed call to match dspbench's semantics

    def __init__(self, problem, threads, cores):
        if problem.get("workload") != self.workload:
            raise Refusal("input", f"peer `{type(self).__name__}` computes {self.workload}, "
                                   f"not {problem.get('workload')}")
        self.problem = problem
        self.lib = need(self.module, self.package)
        if self.gpu:
            if threads is not None:
                raise Refusal("input", "GPU peers take no `threads`")
        elif threads is None:
            # Like the simd backend: every core unless told otherwise, where the library can use them.
            threads = cores if self.threaded else 1
        elif threads < 1:
            raise Refusal("input", f"`threads` must be at least 1, got {threads}")
        elif threads > 1 and not self.threaded:
            raise Refusal("unsupported", f"{self.call} runs on one thread; threads: {threads} is not possible")
        self.threads = threads
        self.loaded = False
        self.prepare()

    def details(self):
        top = self.module.partition(".")[0]
        out = {"peer": "true", "library": f"{top} {distribution_version(top)}", "call": self.call}
        if self.converts:
            out["converts"] = self.converts
        out.update(self.more_details())
        return out

    def more_details(self):
        return {}

    def prepare(self):
        """Plan-time work: FFT plans, library settings."""

    def load(self, arrays):
        """Takes the uploaded arrays; returns host-to-device milliseconds, or None on the CPU."""
        raise NotImplementedError

    def timed(self):
        """One library call: what a sample times."""
        raise NotImplementedError

    def before_batch(self):
        """Untimed, before every batch: process-wide settings another peer may have changed."""

    def run(self, calls):
        if not self.loaded:
            raise Refusal("device", "run before upload")
        self.before_batch()
        return wall_ms(self.timed, calls)

    def output(self):
        """(the output as the workload defines it, device-to-host milliseconds or None)."""
        if not self.loaded:
            raise Refusal("device", "download before upload")
        return self.result(), None

    def result(self):
        raise NotImplementedError


def round_u8(np, values):
    """floor(v + 0.5) saturated to 0..255: the u8 rule of docs/workloads.md, in float64 so that
    the rounding of an f32 value is exact."""
    return np.clip(np.floor(values.astype(np.float64) + 0.5), 0, 255).astype(np.uint8)
