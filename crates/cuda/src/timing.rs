//! Device time, measured by the device: a pair of CUDA events around work on the one stream.

use crate::error::driver;
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaContext, CudaEvent, CudaStream};
use dspbench_core::Error;
use std::sync::Arc;

/// Two events made once per planned kernel and recorded around every timed region.
pub(crate) struct Stopwatch {
    start: CudaEvent,
    end: CudaEvent,
}

impl Stopwatch {
    pub(crate) fn new(ctx: &Arc<CudaContext>) -> Result<Stopwatch, Error> {
        // `None` would make events with timing disabled: ask for the default (timed) kind.
        let event = || ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(driver("creating a CUDA event"));
        Ok(Stopwatch { start: event()?, end: event()? })
    }

    /// Milliseconds between the start and the end of what `work` enqueues on `stream`; returns
    /// once that work has finished.
    pub(crate) fn time<T>(
        &self,
        stream: &CudaStream,
        work: impl FnOnce() -> Result<T, Error>,
    ) -> Result<(T, f64), Error> {
        self.start.record(stream).map_err(driver("recording the start event"))?;
        let value = work()?;
        self.end.record(stream).map_err(driver("recording the end event"))?;
        // elapsed_ms waits for both events, so errors of the work itself surface here.
        let ms = self.start.elapsed_ms(&self.end).map_err(driver("waiting for the GPU"))?;
        Ok((value, ms as f64))
    }
}
