//! A batch of launches as one CUDA graph. Launched one by one, a batch of short kernels is
//! timed at the rate the host can launch them (a few µs each, and that rate moves with the
//! host's load); replayed as a captured graph, the same kernels run back to back on the GPU and
//! the events around the graph time them alone, whatever the host does meanwhile.

use cudarc::driver::sys::{CUgraphInstantiate_flags, CUstreamCaptureMode};
use cudarc::driver::{CudaGraph, CudaStream};
use dspbench_core::Error;

/// Batches larger than this are launched one by one: a graph of that many nodes costs more to
/// build than it saves, and such kernels are too short to be measured as single calls anyway.
pub(crate) const MAX_GRAPH_LAUNCHES: usize = 20_000;

/// A captured batch of `calls` runs, or `None` where capture was refused (launched plainly).
pub(crate) struct Batch {
    pub calls: usize,
    pub graph: Option<SendGraph>,
}

/// A CUDA graph owned by one planned kernel.
pub(crate) struct SendGraph(pub CudaGraph);

// SAFETY: a CUDA graph must not be used from two threads at once. It lives inside one planned
// algorithm, which is `Send` but not `Sync` and is only used through `&mut self`, so every use is
// by one thread at a time; moving it to another thread between uses is allowed.
unsafe impl Send for SendGraph {}

/// Captures `calls` rounds of `launch` (given each round's index) on `stream` into a graph,
/// uploaded and ready to replay.
/// `None` when the stream refuses capture or the launches cannot be captured (the caller then
/// launches one by one); the stream is left out of capture mode either way.
pub(crate) fn capture(
    stream: &std::sync::Arc<CudaStream>,
    calls: usize,
    mut launch: impl FnMut(usize) -> Result<(), Error>,
) -> Option<SendGraph> {
    if calls > MAX_GRAPH_LAUNCHES {
        return None;
    }
    stream.begin_capture(CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL).ok()?;
    let launched = (0..calls).try_for_each(&mut launch);
    // Always end the capture, also after a failed launch, so the stream works again.
    let graph = stream.end_capture(CUgraphInstantiate_flags(0));
    match (launched, graph) {
        (Ok(()), Ok(Some(graph))) => graph.upload().ok().map(|()| SendGraph(graph)),
        _ => None,
    }
}
