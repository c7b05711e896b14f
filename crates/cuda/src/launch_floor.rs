//! The launch floor (crates/stats/src/floor.rs): an empty kernel (kernels/cuda/launch_floor.cu)
//! launched as the runner launches a short cell's batch, replayed as a captured graph
//! (`graph.rs`; one by one where capture is refused), between one pair of events.

use crate::compile::Compiler;
use crate::context::Gpu;
use crate::error::driver;
use crate::graph;
use crate::launch::Launch;
use crate::timing::Stopwatch;
use dspbench_core::Error;
use dspbench_kernels::Defines;
use dspbench_stats::{LaunchFloor, FLOOR_BATCH};

/// The empty kernel's file and entry.
pub(crate) const FLOOR_FILE: &str = "launch_floor";

/// The floor of `gpu` (the caller holds its stream) and the timer's words for the record.
pub(crate) fn measure(gpu: &Gpu) -> Result<(LaunchFloor, &'static str), Error> {
    let module = Compiler::default().load(gpu, FLOOR_FILE, Defines::new())?;
    let launch = Launch::new(&module, FLOOR_FILE, (1, 1), (32, 1))?;
    let once = || {
        let mut builder = gpu.stream.launch_builder(&launch.function);
        // SAFETY: the entry takes no arguments and touches no memory.
        unsafe { builder.launch(launch.config) }.map_err(driver("launching launch_floor"))?;
        Ok(())
    };
    let batch = graph::capture(&gpu.stream, FLOOR_BATCH, |_| once());
    let watch = Stopwatch::new(&gpu.ctx)?;
    let floor = LaunchFloor::measure(|| {
        let run = || match &batch {
            Some(graph) => graph.0.launch().map_err(driver("replaying the launch floor's batch")),
            None => (0..FLOOR_BATCH).try_for_each(|_| once()),
        };
        watch.time(&gpu.stream, run).map(|((), ms)| ms)
    })?;
    let timer = if batch.is_some() { "CUDA events, the batch one graph" } else { "CUDA events, launched one by one" };
    Ok((floor, timer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_is_a_few_microseconds_with_an_interval() {
        let Some(gpu) = crate::conformance::first_gpu() else { return };
        let _stream = gpu.exclusive();
        let (floor, _) = measure(&gpu).unwrap();
        // Any GPU runs an empty kernel in more than 0 and well under 100 us.
        assert!(floor.us.point > 0.0 && floor.us.point < 100.0, "{:?}", floor.us);
        assert!(floor.us.low.is_some_and(|low| low <= floor.us.point), "{:?}", floor.us);
    }
}
