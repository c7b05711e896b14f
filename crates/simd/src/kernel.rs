//! What every variant of this backend shares: the [`Algorithm`] life cycle (problem check,
//! poisoned output, run-before-upload guard, download) around a [`Kernel`] and the [`Cpu`] it
//! runs on, so each variant file holds only its arithmetic.

use crate::isa::Isa;
use crate::threads::Workers;
use dspbench_core::{
    Algorithm, AlgorithmId, Complex32, Error, ExecInfo, Input, Output, Params, Problem, RunTime, Transfer, VariantInfo,
};
use std::collections::BTreeMap;

/// Where a plan runs: the instruction-set level and the threads, both fixed at plan time.
pub(crate) struct Cpu {
    pub(crate) isa: Isa,
    /// Whether the `isa` tunable named the level (else it is the widest the CPU has, which a
    /// variant that has no code for it may lower).
    pub(crate) isa_named: bool,
    pub(crate) workers: Workers,
}

impl Cpu {
    /// The `isa` and `threads` tunables, or the best level and every core.
    pub(crate) fn from_tunables(tunables: &Params) -> Result<Cpu, Error> {
        let isa = Isa::from_tunables(tunables)?;
        let isa_named = tunables.get("isa").is_some();
        Ok(Cpu { isa, isa_named, workers: Workers::from_tunables(tunables)? })
    }
}

/// One variant's arithmetic for one planned problem. Every buffer it needs, per chunk of work
/// included, is allocated when it is built (plan time), so `load` and `compute` only copy and
/// compute.
pub(crate) trait Kernel: Send + 'static {
    /// Element type of the output buffer.
    type Out: Element;

    /// Copies the data of `input` into the kernel's own buffers, and derives from it anything
    /// that depends on the data alone (a filter spectrum). `input` is of the planned problem.
    fn load(&mut self, input: &Input, cpu: &Cpu) -> Result<(), Error>;

    /// Computes the whole output from the loaded input. Must not allocate, and must write
    /// every element: `out` holds the previous run's result (or poison), never zeros.
    fn compute(&mut self, out: &mut [Self::Out], cpu: &Cpu);

    /// How many chunks of work a run is cut into: the most threads it can keep busy.
    fn chunks(&self) -> usize;

    /// Choices the kernel made at plan time, recorded with every result.
    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::new()
    }
}

/// An element type an [`Output`] can hold.
pub(crate) trait Element: Copy + Send + Sync + 'static {
    /// The buffer of `output`, if it holds this type.
    fn from_output(output: Output) -> Option<Vec<Self>>;
    fn into_output(values: Vec<Self>) -> Output;
}

impl Element for f32 {
    fn from_output(output: Output) -> Option<Vec<f32>> {
        match output {
            Output::F32(v) => Some(v),
            _ => None,
        }
    }
    fn into_output(values: Vec<f32>) -> Output {
        Output::F32(values)
    }
}

impl Element for u8 {
    fn from_output(output: Output) -> Option<Vec<u8>> {
        match output {
            Output::U8(v) => Some(v),
            _ => None,
        }
    }
    fn into_output(values: Vec<u8>) -> Output {
        Output::U8(values)
    }
}

impl Element for Complex32 {
    fn from_output(output: Output) -> Option<Vec<Complex32>> {
        match output {
            Output::Complex(v) => Some(v),
            _ => None,
        }
    }
    fn into_output(values: Vec<Complex32>) -> Output {
        Output::Complex(values)
    }
}

/// A kernel wrapped as an [`Algorithm`].
pub(crate) struct Planned<K: Kernel> {
    id: AlgorithmId,
    problem: Problem,
    cpu: Cpu,
    kernel: K,
    /// `None` until the first upload.
    output: Option<Vec<K::Out>>,
}

impl<K: Kernel> Planned<K> {
    pub(crate) fn boxed(id: AlgorithmId, problem: Problem, cpu: Cpu, kernel: K) -> Box<dyn Algorithm> {
        Box::new(Planned { id, problem, cpu, kernel, output: None })
    }

    fn not_uploaded(&self, call: &str) -> Error {
        Error::device(format!("`{call}` called before `upload` on {} `{}`", self.id.workload, self.id.variant))
    }
}

impl<K: Kernel> Algorithm for Planned<K> {
    fn id(&self) -> &AlgorithmId {
        &self.id
    }

    fn exec_info(&self) -> ExecInfo {
        ExecInfo {
            isa: Some(self.cpu.isa.name().to_string()),
            threads: Some(self.cpu.workers.threads().min(self.kernel.chunks())),
            details: self.kernel.details(),
        }
    }

    fn upload(&mut self, input: &Input) -> Result<Transfer, Error> {
        let given = input.problem()?;
        if given != self.problem {
            return Err(Error::input(format!(
                "input is {given}, but {} `{}` was planned for {}",
                self.id.workload, self.id.variant, self.problem
            )));
        }
        // A failed load can leave the kernel's buffers half written: no run until one succeeds.
        self.output = None;
        self.kernel.load(input, &self.cpu)?;
        let output = K::Out::from_output(Output::poisoned(&self.problem)).ok_or_else(|| {
            Error::device(format!(
                "internal: `{}` keeps outputs of another type than {}",
                self.id.variant, self.problem
            ))
        })?;
        self.output = Some(output);
        Ok(Transfer::default())
    }

    fn run(&mut self) -> Result<RunTime, Error> {
        let Some(output) = self.output.as_mut() else { return Err(self.not_uploaded("run")) };
        self.kernel.compute(output, &self.cpu);
        Ok(RunTime::default())
    }

    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        let Some(output) = self.output.as_ref() else { return Err(self.not_uploaded("download")) };
        Ok((K::Out::into_output(output.clone()), Transfer::default()))
    }
}

/// Copies a user buffer into a kernel's preallocated one. The lengths are checked here rather
/// than trusted: an [`Input`]'s fields are public, so its buffers need not match its own shape.
pub(crate) fn copy_checked<T: Copy>(dst: &mut [T], src: &[T], what: &str) -> Result<(), Error> {
    if dst.len() != src.len() {
        return Err(Error::input(format!("{what} has {} elements, the problem needs {}", src.len(), dst.len())));
    }
    dst.copy_from_slice(src);
    Ok(())
}

/// The error for a problem or input of another workload than the variant's (the backend's
/// dispatch rules this out; the kernels still refuse rather than panic).
pub(crate) fn wrong_workload(variant: &VariantInfo, what: impl std::fmt::Display) -> Error {
    Error::input(format!("{} variant `{}` cannot take {what}", variant.workload, variant.name))
}
