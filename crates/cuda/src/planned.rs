//! The life cycle every variant shares (the `Algorithm` half of the backend): problem check,
//! timed uploads and downloads, poisoned outputs, CUDA-event timing of each run, cache
//! eviction, so each variant file holds only its buffers and launches.

use crate::compile::Compiler;
use crate::context::Gpu;
use crate::error::driver;
use crate::graph;
use crate::placement::Spacer;
use crate::timing::Stopwatch;
use dspbench_core::{Algorithm, AlgorithmId, Error, ExecInfo, Input, Output, Params, Problem, RunTime, Transfer};
use std::collections::BTreeMap;
use std::mem::ManuallyDrop;
use std::sync::Arc;

/// One variant's device buffers and launches for one planned problem. Everything is
/// allocated, compiled and shaped when it is built (plan time).
pub(crate) trait GpuKernel: Send + 'static {
    /// Copies the input's buffers to the device; returns the bytes copied. Timed as the upload.
    /// `input` is of the planned problem (checked before), but its buffers may not match its
    /// own shape: check lengths.
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error>;

    /// Derives on the device what depends on the data alone (a filter's spectrum), untimed.
    fn prepare(&mut self, _gpu: &Gpu) -> Result<(), Error> {
        Ok(())
    }

    /// Overwrites the output buffer with poison, so elements a run never writes stand out.
    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error>;

    /// Enqueues one run's kernels on the stream; must not synchronise.
    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error>;

    /// Enqueues one more run right behind this kernel's own previous run, with nothing between
    /// them on the stream (a batch's runs after its first). A kernel may start it under the end of
    /// that run where it knows their buffers allow it (the box filter's dependent launches).
    fn launch_behind_own(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.launch(gpu)
    }

    /// Copies the output into `output` (allocated for the planned problem, of its type and
    /// size); returns the bytes copied. Timed as the download.
    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error>;

    /// Launch geometry, kernel hashes and -D options, and anything else chosen at plan time.
    fn details(&self) -> BTreeMap<String, String>;
}

/// What a variant's planner gets.
pub(crate) struct PlanContext<'a> {
    pub gpu: &'a Arc<Gpu>,
    pub compiler: &'a Compiler,
    pub problem: Problem,
    pub tunables: &'a Params,
    pub id: AlgorithmId,
    /// Allocated before the plan's buffers, held as long as they are (`placement.rs`).
    pub spacer: Spacer,
}

impl PlanContext<'_> {
    /// Wraps a built kernel as an [`Algorithm`].
    pub(crate) fn finish<K: GpuKernel>(self, kernel: K) -> Result<Box<dyn Algorithm>, Error> {
        let watch = Stopwatch::new(&self.gpu.ctx)?;
        Ok(Box::new(Planned {
            id: self.id,
            problem: self.problem,
            gpu: self.gpu.clone(),
            kernel: ManuallyDrop::new(kernel),
            spacer: Some(self.spacer),
            watch,
            uploaded: false,
            batch: None,
        }))
    }
}

struct Planned<K: GpuKernel> {
    id: AlgorithmId,
    problem: Problem,
    gpu: Arc<Gpu>,
    /// Dropped by hand, holding the stream: freeing its buffers enqueues work on it.
    kernel: ManuallyDrop<K>,
    /// Freed with the kernel's buffers, on the stream (hence an `Option`, emptied in `drop`).
    spacer: Option<Spacer>,
    watch: Stopwatch,
    /// False until an upload succeeds; a failed upload can leave buffers half written.
    uploaded: bool,
    /// The batch of launches captured for the current batch size.
    batch: Option<graph::Batch>,
}

impl<K: GpuKernel> Drop for Planned<K> {
    fn drop(&mut self) {
        let _stream = self.gpu.exclusive();
        self.batch = None;
        // SAFETY: dropped once, here, and never used again.
        unsafe { ManuallyDrop::drop(&mut self.kernel) };
        self.spacer = None;
    }
}

impl<K: GpuKernel> Planned<K> {
    fn not_uploaded(&self, call: &str) -> Error {
        Error::device(format!("`{call}` called before `upload` on {} `{}`", self.id.workload, self.id.variant))
    }
}

impl<K: GpuKernel> Algorithm for Planned<K> {
    fn id(&self) -> &AlgorithmId {
        &self.id
    }

    fn exec_info(&self) -> ExecInfo {
        let mut details = self.kernel.details();
        details.insert("device_ordinal".into(), self.gpu.facts.ordinal.to_string());
        if let Some(spacer) = &self.spacer {
            details.insert("placement".into(), spacer.describe(&self.gpu));
        }
        ExecInfo { isa: Some(self.gpu.facts.arch.to_string()), threads: None, details }
    }

    fn upload(&mut self, input: &Input) -> Result<Transfer, Error> {
        let given = input.problem()?;
        if given != self.problem {
            return Err(Error::input(format!(
                "input is {given}, but {} `{}` was planned for {}",
                self.id.workload, self.id.variant, self.problem
            )));
        }
        self.uploaded = false;
        let _stream = self.gpu.exclusive();
        let (bytes, ms) = self.watch.time(&self.gpu.stream, || self.kernel.copy_in(&self.gpu, input))?;
        self.kernel.prepare(&self.gpu)?;
        self.kernel.poison(&self.gpu)?;
        self.uploaded = true;
        Ok(Transfer { ms: Some(ms), bytes })
    }

    fn run(&mut self) -> Result<RunTime, Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("run"));
        }
        let _stream = self.gpu.exclusive();
        let ((), ms) = self.watch.time(&self.gpu.stream, || self.kernel.launch(&self.gpu))?;
        Ok(RunTime { device_ms: Some(ms) })
    }

    /// The whole batch between one pair of events, replayed as a captured CUDA graph so that
    /// the kernels run back to back whatever the host's launch rate (`graph.rs`); launched one by
    /// one where capture is refused. The per-call time is then the kernels' own.
    fn run_batch(&mut self, calls: usize) -> Result<RunTime, Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("run"));
        }
        if calls == 1 {
            return self.run();
        }
        let gpu = self.gpu.clone();
        let _stream = gpu.exclusive();
        if self.batch.as_ref().is_none_or(|b| b.calls != calls) {
            // A new batch size (calibration tries a few): capture it once, replay it for every sample.
            self.batch = None;
            let (gpu, kernel) = (&self.gpu, &mut self.kernel);
            let graph = graph::capture(&gpu.stream, calls, |call| launch_call(&mut **kernel, gpu, call));
            self.batch = Some(graph::Batch { calls, graph });
        }
        let (gpu, kernel, batch) = (&self.gpu, &mut self.kernel, self.batch.as_ref().expect("set above"));
        let ((), ms) = self.watch.time(&gpu.stream, || match &batch.graph {
            Some(graph) => graph.0.launch().map_err(driver("replaying a batch of launches")),
            None => (0..calls).try_for_each(|call| launch_call(&mut **kernel, gpu, call)),
        })?;
        Ok(RunTime { device_ms: Some(ms) })
    }

    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("download"));
        }
        // Allocated before the events are recorded, so the download time is the copy's alone.
        let mut output = Output::poisoned(&self.problem);
        let _stream = self.gpu.exclusive();
        let (bytes, ms) = self.watch.time(&self.gpu.stream, || self.kernel.copy_out(&self.gpu, &mut output))?;
        Ok((output, Transfer { ms: Some(ms), bytes }))
    }

    fn evict_device_caches(&mut self) -> Result<(), Error> {
        self.gpu.evict_l2()
    }
}

/// A batch's call `call`: its first launched as any run, the others right behind the one before.
fn launch_call<K: GpuKernel>(kernel: &mut K, gpu: &Gpu, call: usize) -> Result<(), Error> {
    if call == 0 {
        kernel.launch(gpu)
    } else {
        kernel.launch_behind_own(gpu)
    }
}

/// The error for an input of another workload or element type than the plan's (ruled out
/// by the problem check; kernels still refuse rather than panic).
pub(crate) fn wrong_input() -> Error {
    Error::input("the input is not of the planned workload and element type")
}

/// The f32 buffer of a conv1d output.
pub(crate) fn floats_mut(output: &mut Output) -> Result<&mut [f32], Error> {
    match output {
        Output::F32(v) => Ok(v),
        _ => Err(Error::device("internal: a conv1d output must hold f32")),
    }
}
