//! Every peer variant: what it computes, with which library, and where it runs. The worker's
//! adapters (python/cpu_peers.py, python/gpu_peers.py) carry the same names; a test holds the two
//! lists together.

use dspbench_core::{Domain, VariantInfo, Workload};

/// Where a peer computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Cpu,
    Gpu,
}

/// One peer variant.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    pub info: VariantInfo,
    pub place: Place,
}

/// The widest u8 box window whose mean SciPy's float32 passes still round exactly: two f32
/// roundings of a mean (<= 255 * 2^-24 each) must stay below the mean's distance from the nearest
/// tie, which is at least 1 / (2 m^2) (docs/peers.md).
const SCIPY_U8_WINDOW: usize = 63;

/// The same for CuPy, whose second pass sums m float32 terms in float32 (about m roundings).
const CUPY_U8_WINDOW: usize = 15;

const CPU_THREADS: &[&str] = &["threads"];

const fn cpu(workload: Workload, name: &'static str, summary: &'static str, domain: Domain) -> Peer {
    Peer { info: VariantInfo { workload, name, summary, tunables: CPU_THREADS, domain }, place: Place::Cpu }
}

const fn gpu(workload: Workload, name: &'static str, summary: &'static str, domain: Domain) -> Peer {
    Peer { info: VariantInfo { workload, name, summary, tunables: &[], domain }, place: Place::Gpu }
}

pub const PEERS: [Peer; 15] = [
    cpu(
        Workload::BoxFilter,
        "opencv-blur",
        "peer: OpenCV cv2.blur, BORDER_REPLICATE (threads: cv2.setNumThreads, default every core)",
        Domain::Any,
    ),
    cpu(
        Workload::BoxFilter,
        "scipy-uniform",
        "peer: scipy.ndimage.uniform_filter, mode nearest (one thread; u8 through float32, rounded untimed)",
        Domain::U8WindowUpTo { max_u8_window: SCIPY_U8_WINDOW },
    ),
    gpu(
        Workload::BoxFilter,
        "cupy-uniform",
        "peer: cupyx.scipy.ndimage.uniform_filter on the GPU (u8 through float32, rounded untimed)",
        Domain::U8WindowUpTo { max_u8_window: CUPY_U8_WINDOW },
    ),
    cpu(
        Workload::Conv2d,
        "opencv-filter2d",
        "peer: OpenCV cv2.filter2D, BORDER_REPLICATE (threads: cv2.setNumThreads, default every core)",
        Domain::Any,
    ),
    cpu(
        Workload::Conv2d,
        "scipy-correlate",
        "peer: scipy.ndimage.correlate, mode nearest (one thread; u8 through float32, rounded untimed)",
        Domain::Any,
    ),
    gpu(
        Workload::Conv2d,
        "cupy-correlate",
        "peer: cupyx.scipy.ndimage.correlate on the GPU (u8 through float32, rounded untimed)",
        Domain::Any,
    ),
    cpu(Workload::Conv1d, "numpy-convolve", "peer: numpy.convolve, full, direct (one thread)", Domain::Any),
    cpu(
        Workload::Conv1d,
        "scipy-oaconvolve",
        "peer: scipy.signal.oaconvolve, overlap-add (threads: scipy.fft.set_workers, default every core)",
        Domain::Any,
    ),
    cpu(
        Workload::Conv1d,
        "scipy-fftconvolve",
        "peer: scipy.signal.fftconvolve, one FFT of the whole signal (one thread)",
        Domain::Any,
    ),
    gpu(Workload::Conv1d, "cupy-fftconvolve", "peer: cupyx.scipy.signal.fftconvolve on the GPU (cuFFT)", Domain::Any),
    gpu(
        Workload::Conv1d,
        "torch-conv1d",
        "peer: torch.nn.functional.conv1d on the GPU (cuDNN, TF32 off; filter flipped untimed)",
        Domain::Any,
    ),
    cpu(Workload::Fft, "numpy-fft", "peer: numpy.fft.fft, pocketfft (one thread)", Domain::Any),
    cpu(
        Workload::Fft,
        "scipy-fft",
        "peer: scipy.fft.fft, pocketfft (threads: workers, default every core)",
        Domain::Any,
    ),
    cpu(
        Workload::Fft,
        "pyfftw",
        "peer: FFTW through pyFFTW, FFTW_MEASURE plan at plan time (threads: default every core)",
        Domain::Any,
    ),
    gpu(Workload::Fft, "cupy-fft", "peer: cupy.fft.fft on the GPU (cuFFT, plan cached by CuPy)", Domain::Any),
];

pub fn find(name: &str) -> Option<&'static Peer> {
    PEERS.iter().find(|p| p.info.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_library_dash_function_and_unique() {
        for (i, p) in PEERS.iter().enumerate() {
            assert!(p.info.name.contains('-') || p.info.name == "pyfftw", "{}", p.info.name);
            assert!(PEERS[..i].iter().all(|q| q.info.name != p.info.name), "{} twice", p.info.name);
            assert_eq!(p.place == Place::Cpu, p.info.tunables == CPU_THREADS, "{}", p.info.name);
        }
    }

    #[test]
    fn the_worker_has_an_adapter_for_every_peer_and_no_other() {
        let sources = [include_str!("../python/cpu_peers.py"), include_str!("../python/gpu_peers.py")];
        let listed: Vec<&str> = sources
            .iter()
            .flat_map(|s| s.lines())
            .filter_map(|l| l.trim().strip_prefix('"')?.split_once("\": ").map(|(name, _)| name))
            .collect();
        let mut ours: Vec<&str> = PEERS.iter().map(|p| p.info.name).collect();
        let mut theirs = listed.clone();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs);
    }
}
