"""The CPU peers: NumPy, SciPy, OpenCV and pyFFTW, each called as a user would call it, with
dspbench's semantics (docs/workloads.md). Outputs are preallocated where the library takes one."""
import numpy as np

from peer import Peer, round_u8


class ImagePeer(Peer):
    """A filter of one image (box-filter, conv2d): the source and, where the call takes one, its
    output buffer."""

    def load(self, arrays):
        self.src = arrays["image"]
        self.kernel = arrays.get("kernel")
        self.dst = np.empty(self.src.shape, dtype=self.out_dtype())
        self.loaded = True
        return None

    def out_dtype(self):
        return self.src.dtype

    def result(self):
        return self.dst


class OpencvThreads:
    """OpenCV's thread count is one setting for the whole process, which other OpenCV peers in the
    same worker change: it is set again before every batch, outside the timed calls."""

    def before_batch(self):
        self.lib.setNumThreads(self.threads)

    def more_details(self):
        return {"threads_setting": f"cv2.setNumThreads({self.threads})"}


class OpencvBlur(OpencvThreads, ImagePeer):
    workload = "box-filter"
    module, package = "cv2", "opencv-python-headless"
    threaded = True
    call = "cv2.blur(src, (m, m), dst=dst, borderType=cv2.BORDER_REPLICATE)"

    def timed(self):
        m = self.problem["window"]
        self.lib.blur(self.src, (m, m), dst=self.dst, borderType=self.lib.BORDER_REPLICATE)


class OpencvFilter2d(OpencvThreads, ImagePeer):
    workload = "conv2d"
    module, package = "cv2", "opencv-python-headless"
    threaded = True
    call = "cv2.filter2D(src, -1, kernel, dst=dst, borderType=cv2.BORDER_REPLICATE)"

    def timed(self):
        self.lib.filter2D(self.src, -1, self.kernel, dst=self.dst, borderType=self.lib.BORDER_REPLICATE)


class ScipyUniform(ImagePeer):
    workload = "box-filter"
    module, package = "scipy.ndimage", "scipy"
    call = "scipy.ndimage.uniform_filter(src, size=m, mode='nearest', output=dst)"

    def prepare(self):
        if self.problem["dtype"] == "u8":
            # uniform_filter casts to an integer output after each of its two passes, truncating
            # the first pass's means: it computes into float32 instead (both passes), and the mean
            # is rounded half up to u8 outside the timed call.
            self.converts = ("u8: output=float32 (scipy truncates integer outputs after each 1-D pass), "
                             "rounded half up to u8 outside the timed call")

    def out_dtype(self):
        return np.float32 if self.problem["dtype"] == "u8" else self.src.dtype

    def timed(self):
        self.lib.uniform_filter(self.src, size=self.problem["window"], mode="nearest", output=self.dst)

    def result(self):
        return round_u8(np, self.dst) if self.problem["dtype"] == "u8" else self.dst


class ScipyCorrelate(ImagePeer):
    workload = "conv2d"
    module, package = "scipy.ndimage", "scipy"
    call = "scipy.ndimage.correlate(src, kernel, output=dst, mode='nearest')"

    def prepare(self):
        if self.problem["dtype"] == "u8":
            # scipy casts a float sum to an integer output by truncation, without saturation.
            self.converts = ("u8: output=float32 (scipy truncates integer outputs), rounded half up and "
                             "saturated to u8 outside the timed call")

    def out_dtype(self):
        return np.float32

    def timed(self):
        self.lib.correlate(self.src, self.kernel, output=self.dst, mode="nearest")

    def result(self):
        return round_u8(np, self.dst) if self.problem["dtype"] == "u8" else self.dst


class SignalPeer(Peer):
    """A full 1-D convolution; the library returns a new array each call (none takes an output)."""

    workload = "conv1d"

    def load(self, arrays):
        self.x, self.h = arrays["signal"], arrays["filter"]
        self.y = None
        self.loaded = True
        return None

    def result(self):
        return self.y


class NumpyConvolve(SignalPeer):
    module, package = "numpy", "numpy"
    call = "numpy.convolve(x, h)"  # mode 'full', direct summation

    def timed(self):
        self.y = self.lib.convolve(self.x, self.h)


class ScipyFftWorkers:
    """scipy.signal's FFT convolutions take no thread count; scipy.fft.set_workers sets the one
    their transforms use. Entered outside the timed calls."""

    def run(self, calls):
        import scipy.fft

        with scipy.fft.set_workers(self.threads):
            return super().run(calls)

    def more_details(self):
        return {"threads_setting": f"scipy.fft.set_workers({self.threads})"}


class ScipyOaconvolve(ScipyFftWorkers, SignalPeer):
    module, package = "scipy.signal", "scipy"
    threaded = True  # overlap-add transforms many blocks at once: workers share them
    call = "scipy.signal.oaconvolve(x, h)"

    def timed(self):
        self.y = self.lib.oaconvolve(self.x, self.h)


class ScipyFftconvolve(SignalPeer):
    # One long transform: pocketfft parallelises over transforms, not within one, so workers
    # would change nothing.
    module, package = "scipy.signal", "scipy"
    call = "scipy.signal.fftconvolve(x, h)"

    def timed(self):
        self.y = self.lib.fftconvolve(self.x, self.h)


class FftPeer(Peer):
    """`batch` forward transforms of `size` points, as a (batch, size) complex64 array."""

    workload = "fft"

    def load(self, arrays):
        self.x = arrays["data"]
        self.y = None
        self.loaded = True
        return None

    def result(self):
        return self.y


class NumpyFft(FftPeer):
    module, package = "numpy", "numpy"

    def prepare(self):
        # NumPy 2 transforms complex64 in single precision into a given output; NumPy 1 computes
        # in complex128, rounded to complex64 outside the timed call.
        self.native = int(self.lib.__version__.split(".")[0]) >= 2
        if self.native:
            self.call = "numpy.fft.fft(x, axis=-1, out=y)"
        else:
            self.call = "numpy.fft.fft(x, axis=-1)"
            self.converts = "NumPy < 2 computes in complex128: rounded to complex64 outside the timed call"

    def load(self, arrays):
        super().load(arrays)
        self.y = np.empty_like(self.x) if self.native else None
        return None

    def timed(self):
        if self.native:
            self.lib.fft.fft(self.x, axis=-1, out=self.y)
        else:
            self.y = self.lib.fft.fft(self.x, axis=-1)

    def result(self):
        return self.y.astype(np.complex64, copy=False)


class ScipyFft(FftPeer):
    module, package = "scipy.fft", "scipy"
    threaded = True
    call = "scipy.fft.fft(x, axis=-1, workers=threads)"

    def timed(self):
        self.y = self.lib.fft(self.x, axis=-1, workers=self.threads)


class Pyfftw(FftPeer):
    module, package = "pyfftw", "pyfftw"
    threaded = True
    call = "pyfftw.FFTW(a, b, axes=(-1,), flags=('FFTW_MEASURE',), threads=threads).execute()"

    def prepare(self):
        shape = (self.problem["batch"], self.problem["size"])
        self.a = self.lib.empty_aligned(shape, dtype="complex64")
        self.b = self.lib.empty_aligned(shape, dtype="complex64")
        # FFTW_MEASURE times candidate plans on these arrays (overwriting them): plan time, once.
        self.plan = self.lib.FFTW(self.a, self.b, axes=(-1,), direction="FFTW_FORWARD", flags=("FFTW_MEASURE",),
                                  threads=self.threads)

    def load(self, arrays):
        self.a[:] = arrays["data"]
        self.loaded = True
        return None

    def timed(self):
        # execute() runs the plan on its own arrays: no copies, no normalisation (forward is unscaled).
        self.plan.execute()

    def result(self):
        return self.b


CPU_PEERS = {
    "opencv-blur": OpencvBlur,
    "scipy-uniform": ScipyUniform,
    "opencv-filter2d": OpencvFilter2d,
    "scipy-correlate": ScipyCorrelate,
    "numpy-convolve": NumpyConvolve,
    "scipy-oaconvolve": ScipyOaconvolve,
    "scipy-fftconvolve": ScipyFftconvolve,
    "numpy-fft": NumpyFft,
    "scipy-fft": ScipyFft,
    "pyfftw": Pyfftw,
}
