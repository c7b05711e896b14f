"""The GPU peers: CuPy (cupyx.scipy, cuFFT) and PyTorch (cuDNN), on the first CUDA device. Data stays
on the device between calls; a batch is timed by one pair of CUDA events around its calls, queued
back to back, after the stream has drained (as dspbench's CUDA cells are timed). Uploads and
downloads are timed apart, and conversions to dspbench's types run on the device outside the
events."""
import time

import numpy as np

from peer import Peer, Refusal


def cupy_events_ms(cp, fn, calls):
    stream = cp.cuda.get_current_stream()
    stream.synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record(stream)
    for _ in range(calls):
        fn()
    end.record(stream)
    end.synchronize()
    return float(cp.cuda.get_elapsed_time(start, end))


class CupyPeer(Peer):
    module, package = "cupy", "cupy-cuda12x"
    gpu = True

    def prepare(self):
        import cupyx.scipy.ndimage
        import cupyx.scipy.signal

        self.ndimage, self.signal = cupyx.scipy.ndimage, cupyx.scipy.signal

    def load(self, arrays):
        cp = self.lib
        start = time.perf_counter()
        self.dev = {name: cp.asarray(a) for name, a in arrays.items()}
        cp.cuda.get_current_stream().synchronize()
        ms = (time.perf_counter() - start) * 1e3
        self.setup()
        self.loaded = True
        return ms

    def setup(self):
        """Device buffers the timed call writes into."""

    def run(self, calls):
        if not self.loaded:
            raise Refusal("device", "run before upload")
        return cupy_events_ms(self.lib, self.timed, calls)

    def output(self):
        if not self.loaded:
            raise Refusal("device", "download before upload")
        converted = self.device_result()
        self.lib.cuda.get_current_stream().synchronize()
        start = time.perf_counter()
        host = self.lib.asnumpy(converted)
        return host, (time.perf_counter() - start) * 1e3

    def device_result(self):
        raise NotImplementedError


def round_u8_device(cp, values):
    """floor(v + 0.5) saturated to 0..255 (docs/workloads.md), on the device."""
    return cp.clip(cp.floor(values.astype(cp.float64) + 0.5), 0, 255).astype(cp.uint8)


class CupyImagePeer(CupyPeer):
    def setup(self):
        # cupyx.scipy.ndimage, like SciPy, would cast an integer output by truncation: a u8 image
        # is filtered into float32 and rounded half up outside the timed calls.
        src = self.dev["image"]
        self.dst = self.lib.empty(src.shape, dtype=self.lib.float32)

    def device_result(self):
        return round_u8_device(self.lib, self.dst) if self.problem["dtype"] == "u8" else self.dst


class CupyUniform(CupyImagePeer):
    workload = "box-filter"
    call = "cupyx.scipy.ndimage.uniform_filter(src, size=m, mode='nearest', output=dst)"

    def prepare(self):
        super().prepare()
        if self.problem["dtype"] == "u8":
            self.converts = "u8: output=float32, rounded half up to u8 on the device outside the timed calls"

    def timed(self):
        self.ndimage.uniform_filter(self.dev["image"], size=self.problem["window"], mode="nearest", output=self.dst)


class CupyCorrelate(CupyImagePeer):
    workload = "conv2d"
    call = "cupyx.scipy.ndimage.correlate(src, kernel, output=dst, mode='nearest')"

    def prepare(self):
        super().prepare()
        if self.problem["dtype"] == "u8":
            self.converts = ("u8: output=float32, rounded half up and saturated to u8 on the device outside "
                             "the timed calls")

    def timed(self):
        self.ndimage.correlate(self.dev["image"], self.dev["kernel"], output=self.dst, mode="nearest")


class CupyFftconvolve(CupyPeer):
    workload = "conv1d"
    call = "cupyx.scipy.signal.fftconvolve(x, h)"

    def setup(self):
        self.y = None

    def timed(self):
        self.y = self.signal.fftconvolve(self.dev["signal"], self.dev["filter"])

    def device_result(self):
        return self.y.astype(self.lib.float32, copy=False)


class CupyFft(CupyPeer):
    workload = "fft"
    call = "cupy.fft.fft(x, axis=-1)"  # cuFFT, its plan cached by CuPy after the first call (a warm-up)

    def setup(self):
        self.y = None

    def timed(self):
        self.y = self.lib.fft.fft(self.dev["data"], axis=-1)

    def device_result(self):
        return self.y


class TorchConv1d(Peer):
    workload = "conv1d"
    module, package = "torch", "torch"
    gpu = True
    call = "torch.nn.functional.conv1d(x, flip(h), padding=m-1)"
    converts = ("torch's conv1d correlates: the filter is flipped once at upload, and padding m-1 gives the full "
                "output; TF32 is off (cuDNN would otherwise round f32 inputs to 10-bit mantissas)")

    def prepare(self):
        torch = self.lib
        if not torch.cuda.is_available():
            raise Refusal("unsupported", "PyTorch sees no CUDA device")
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
        # cuDNN picks its fastest algorithm for this shape on the first (warm-up) call, as a tuned
        # user program would.
        torch.backends.cudnn.benchmark = True

    def more_details(self):
        return {"cudnn": str(self.lib.backends.cudnn.version()), "allow_tf32": "false", "cudnn_benchmark": "true"}

    def load(self, arrays):
        torch = self.lib
        start = time.perf_counter()
        self.x = torch.from_numpy(arrays["signal"]).to("cuda").view(1, 1, -1)
        h = torch.from_numpy(np.ascontiguousarray(arrays["filter"][::-1])).to("cuda")
        self.h = h.view(1, 1, -1)
        torch.cuda.synchronize()
        ms = (time.perf_counter() - start) * 1e3
        self.y = None
        self.loaded = True
        return ms

    def timed(self):
        self.y = self.lib.nn.functional.conv1d(self.x, self.h, padding=self.h.shape[-1] - 1)

    def run(self, calls):
        if not self.loaded:
            raise Refusal("device", "run before upload")
        torch = self.lib
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            self.timed()
        end.record()
        end.synchronize()
        return float(start.elapsed_time(end))

    def output(self):
        if not self.loaded:
            raise Refusal("device", "download before upload")
        self.lib.cuda.synchronize()
        start = time.perf_counter()
        host = self.y.view(-1).cpu().numpy()
        return host, (time.perf_counter() - start) * 1e3


GPU_PEERS = {
    "cupy-uniform": CupyUniform,
    "cupy-correlate": CupyCorrelate,
    "cupy-fftconvolve": CupyFftconvolve,
    "torch-conv1d": TorchConv1d,
    "cupy-fft": CupyFft,
}
