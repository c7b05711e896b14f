//! The [`Algorithm`] life cycle of a CPU kernel (problem check, poisoned output, run-before-upload
//! guard, download), so each variant file only holds its arithmetic.

use crate::aligned::Aligned;
use dspbench_core::{
    Algorithm, AlgorithmId, Complex32, Error, ExecInfo, Input, Output, Problem, RunTime, Transfer, VariantInfo,
};
use std::collections::BTreeMap;

/// What a kernel runs on (one scalar thread; an ISA level and a thread pool), fixed at plan
/// time, and how that reads in the records.
pub trait ExecContext: Send + 'static {
    /// The execution facts of a kernel that cuts a run into `chunks` pieces of work.
    fn exec_info(&self, chunks: usize, details: BTreeMap<String, String>) -> ExecInfo;
}

/// One variant's arithmetic for one planned problem. Every buffer it needs is allocated when
/// it is built (plan time), so `load` and `compute` only copy and compute.
pub trait Kernel: Send + 'static {
    /// Element type of the output buffer.
    type Out: Element;
    /// What it runs on.
    type Context: ExecContext;

    /// Copies the data of `input` into the kernel's own buffers, and derives from it anything
    /// that depends on the data alone (a filter spectrum). `input` is of the planned problem.
    fn load(&mut self, input: &Input, context: &Self::Context) -> Result<(), Error>;

    /// Computes the whole output from the loaded input. Must not allocate, and must write
    /// every element: `out` holds the previous run's result (or poison), never zeros.
    fn compute(&mut self, out: &mut [Self::Out], context: &Self::Context);

    /// How many pieces a run is cut into: the most threads it can keep busy.
    fn chunks(&self) -> usize {
        1
    }

    /// Choices the kernel made at plan time, recorded with every result.
    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::new()
    }
}

/// An element type an [`Output`] can hold.
pub trait Element: Copy + Send + Sync + 'static {
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
pub struct Planned<K: Kernel> {
    id: AlgorithmId,
    problem: Problem,
    context: K::Context,
    kernel: K,
    /// `None` until the first upload. On a cache line: vector stores into it never split one
    /// (see `aligned`).
    output: Option<Aligned<K::Out>>,
}

impl<K: Kernel> Planned<K> {
    pub fn boxed(id: AlgorithmId, problem: Problem, context: K::Context, kernel: K) -> Box<dyn Algorithm> {
        Box::new(Planned { id, problem, context, kernel, output: None })
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
        self.context.exec_info(self.kernel.chunks(), self.kernel.details())
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
        self.kernel.load(input, &self.context)?;
        let output = K::Out::from_output(Output::poisoned(&self.problem)).ok_or_else(|| {
            Error::device(format!(
                "internal: `{}` keeps outputs of another type than {}",
                self.id.variant, self.problem
            ))
        })?;
        self.output = Some(Aligned::from_slice(&output));
        Ok(Transfer::default())
    }

    fn run(&mut self) -> Result<RunTime, Error> {
        let Some(output) = self.output.as_mut() else { return Err(self.not_uploaded("run")) };
        self.kernel.compute(output, &self.context);
        Ok(RunTime::default())
    }

    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        let Some(output) = self.output.as_ref() else { return Err(self.not_uploaded("download")) };
        Ok((K::Out::into_output(output.to_vec()), Transfer::default()))
    }
}

/// Copies a user buffer into a kernel's preallocated one. The lengths are checked here rather
/// than trusted: an [`Input`]'s fields are public, so its buffers need not match its own shape.
pub fn copy_checked<T: Copy>(dst: &mut [T], src: &[T], what: &str) -> Result<(), Error> {
    check_len(what, src.len(), dst.len())?;
    dst.copy_from_slice(src);
    Ok(())
}

/// A bad input unless a user buffer `what` of `len` elements has the `needed` its problem asks,
/// for buffers a kernel reads in place of copying them whole (as [`copy_checked`] does).
pub fn check_len(what: &str, len: usize, needed: usize) -> Result<(), Error> {
    if len != needed {
        return Err(Error::input(format!("{what} has {len} elements, the problem needs {needed}")));
    }
    Ok(())
}

/// The error for a problem or input of another workload than the variant's (the backend's
/// dispatch rules this out; the kernels still refuse rather than panic).
pub fn wrong_workload(variant: &VariantInfo, what: impl std::fmt::Display) -> Error {
    Error::input(format!("{} variant `{}` cannot take {what}", variant.workload, variant.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Copies;

    impl ExecContext for () {
        fn exec_info(&self, _: usize, details: BTreeMap<String, String>) -> ExecInfo {
            ExecInfo { isa: None, threads: None, details }
        }
    }

    /// Copies the samples and records whether the output it was handed starts on a cache line.
    impl Kernel for Copies {
        type Out = Complex32;
        type Context = ();

        fn load(&mut self, _: &Input, _: &()) -> Result<(), Error> {
            Ok(())
        }

        fn compute(&mut self, out: &mut [Complex32], _: &()) {
            let on_a_line = out.as_ptr() as usize % 64 == 0;
            out.fill(Complex32::new(f32::from(u8::from(on_a_line)), 0.0));
        }
    }

    #[test]
    fn kernels_write_an_output_on_a_cache_line_and_download_returns_it() {
        let problem = Problem::Fft { size: 1000, batch: 3 };
        let id = AlgorithmId {
            workload: problem.workload(),
            variant: "copies".into(),
            backend: "test".into(),
            device: "cpu".into(),
        };
        let mut planned = Planned::boxed(id, problem, (), Copies);
        assert!(planned.run().is_err(), "a run before the upload is refused");
        let input = Input::Fft { data: vec![Complex32::default(); 3000], size: 1000, batch: 3 };
        planned.upload(&input).unwrap();
        planned.run().unwrap();
        let (Output::Complex(values), _) = planned.download().unwrap() else { panic!("complex output") };
        assert_eq!(values.len(), 3000);
        assert!(values.iter().all(|v| v.re == 1.0), "the output buffer starts on a cache line");
    }

    #[test]
    fn user_buffers_of_another_length_are_bad_input_naming_the_buffer() {
        let mut dst = [0u8; 4];
        assert!(copy_checked(&mut dst, &[1, 2, 3, 4], "image").is_ok());
        assert_eq!(dst, [1, 2, 3, 4]);
        let err = copy_checked(&mut dst, &[9; 3], "image").unwrap_err();
        assert!(matches!(&err, Error::Input(m) if m == "image has 3 elements, the problem needs 4"), "{err}");
        assert_eq!(dst, [1, 2, 3, 4], "left as it was");
        assert!(check_len("filter", 5, 5).is_ok());
        let err = check_len("filter", 6, 5).unwrap_err();
        assert!(matches!(&err, Error::Input(m) if m == "filter has 6 elements, the problem needs 5"), "{err}");
    }
}
