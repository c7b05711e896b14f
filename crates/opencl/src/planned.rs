//! The [`Algorithm`] life cycle every OpenCL variant shares. A variant's planner allocates its
//! buffers, builds its programs and fixes its launches into a [`Planned`]; this file does the
//! rest: uploads (timed by their events), poisoning the output, the runs (device time from the
//! first launch's start to the last one's end), downloads, and cache eviction.

use crate::buffers::{bytes_of, mib, DeviceBuffer, Plain};
use crate::cl_error::cl_failure;
use crate::device::Device;
use crate::launch::{Arg, Launch};
use crate::program::Program;
use crate::timing::{batch_span_ms, event_ms};
use dspbench_core::{
    Algorithm, AlgorithmId, Complex32, Error, ExecInfo, Input, Output, Pixels, Problem, RunTime, Transfer,
};
use opencl3::command_queue::CommandQueue;
use opencl3::event::Event;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Which part of an [`Input`] an input buffer receives, copied as is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// conv1d x.
    Signal,
    /// conv1d h.
    Filter,
    /// The image of a box filter or conv2d.
    Pixels,
    /// The (2R+1)^2 conv2d kernel.
    Taps,
    /// FFT samples.
    Samples,
    /// lms x, every channel's.
    LmsX,
    /// lms d, every channel's.
    LmsD,
}

/// The element type of the output buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutKind {
    F32,
    U8,
    Complex,
}

impl OutKind {
    fn element_bytes(self) -> usize {
        match self {
            OutKind::F32 => 4,
            OutKind::U8 => 1,
            OutKind::Complex => 8,
        }
    }
}

/// The output on the device: its element type, element count and buffer.
struct OutputBuffer {
    kind: OutKind,
    len: usize,
    buffer: DeviceBuffer,
}

pub(crate) struct Planned {
    id: AlgorithmId,
    problem: Problem,
    device: Arc<Device>,
    queue: CommandQueue,
    inputs: Vec<(Role, DeviceBuffer)>,
    /// Inputs passed to kernels by value (`Arg::Value`): the part of the input and its bytes.
    values: Vec<(Role, usize)>,
    output: OutputBuffer,
    /// Buffers only kernels touch (intermediates, tables); kept alive with the launches.
    scratch: Vec<DeviceBuffer>,
    /// Launches that derive data from the input alone (a filter spectrum): run once per upload.
    prepare: Vec<Launch>,
    steps: Vec<Launch>,
    details: BTreeMap<String, String>,
    sources: Vec<(String, String)>,
    defines: Vec<String>,
    eviction: Option<DeviceBuffer>,
    uploaded: bool,
}

impl Planned {
    pub(crate) fn new(id: AlgorithmId, problem: Problem, device: &Arc<Device>, out: OutKind) -> Result<Self, Error> {
        let queue = device.queue()?;
        let len = problem.output_elements();
        let buffer = DeviceBuffer::new(device, len * out.element_bytes(), "output")?;
        Ok(Planned {
            id,
            problem,
            device: device.clone(),
            queue,
            inputs: Vec::new(),
            values: Vec::new(),
            output: OutputBuffer { kind: out, len, buffer },
            scratch: Vec::new(),
            prepare: Vec::new(),
            steps: Vec::new(),
            details: BTreeMap::new(),
            sources: Vec::new(),
            defines: Vec::new(),
            eviction: None,
            uploaded: false,
        })
    }

    pub(crate) fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// An input buffer of `bytes` that `upload` fills from `role`; returns it as a kernel argument.
    pub(crate) fn input(&mut self, role: Role, bytes: usize) -> Result<Arg, Error> {
        let buffer = DeviceBuffer::new(&self.device, bytes, role_name(role))?;
        let arg = Arg::Mem(buffer.mem());
        self.inputs.push((role, buffer));
        Ok(arg)
    }

    /// An input of `bytes` that kernels take by value (a struct argument) rather than in a buffer:
    /// `upload` sets it on every launch that names the returned argument.
    pub(crate) fn input_by_value(&mut self, role: Role, bytes: usize) -> Arg {
        self.values.push((role, bytes));
        Arg::Value { slot: self.values.len() - 1, len: bytes }
    }

    /// The output buffer as a kernel argument.
    pub(crate) fn output(&self) -> Arg {
        Arg::Mem(self.output.buffer.mem())
    }

    /// A buffer only the kernels use.
    pub(crate) fn scratch(&mut self, bytes: usize, what: &'static str) -> Result<Arg, Error> {
        let buffer = DeviceBuffer::new(&self.device, bytes, what)?;
        let arg = Arg::Mem(buffer.mem());
        self.scratch.push(buffer);
        Ok(arg)
    }

    /// A buffer holding `values`, written now (plan time, untimed): index tables, twiddles.
    pub(crate) fn table<T: Plain>(&mut self, values: &[T], what: &'static str) -> Result<Arg, Error> {
        let mut buffer = DeviceBuffer::new(&self.device, std::mem::size_of_val(values), what)?;
        if !values.is_empty() {
            buffer.write(&self.queue, values)?;
        }
        let arg = Arg::Mem(buffer.mem());
        self.scratch.push(buffer);
        Ok(arg)
    }

    /// The device addresses of `buffers` (plan time, untimed): each one's pointer value as
    /// `program`'s `buffer_address` kernel reads it (kernels/opencl/buffer_address.cl).
    pub(crate) fn device_addresses(&mut self, program: &Program, buffers: &[Arg]) -> Result<Vec<u64>, Error> {
        let address = DeviceBuffer::new(&self.device, 8, "a buffer's device address")?;
        let mut found = Vec::with_capacity(buffers.len());
        for &buffer in buffers {
            let args = [buffer, Arg::Mem(address.mem())];
            let launch = Launch::new(&self.device, program, "buffer_address", &args, [1, 1], [1, 1])?;
            launch.enqueue_untimed(&self.queue)?;
            let mut value = [0u64];
            address.read(&self.queue, &mut value)?;
            found.push(value[0]);
        }
        Ok(found)
    }

    /// Records `program` as a source this plan runs (hash and defines for the records).
    pub(crate) fn uses(&mut self, program: &Program) {
        if !self.sources.iter().any(|(file, _)| *file == program.file) {
            self.sources.push((program.file.clone(), program.sha256.clone()));
            // The vendor's build options (NVIDIA's register cap) and a raised PTX target after the
            // macros: all change the binary.
            let defines = program
                .defines
                .options()
                .into_iter()
                .chain(program.vendor.iter().cloned())
                .chain(program.ptx_target.map(|t| format!("(PTX target {t})")))
                .collect::<Vec<_>>()
                .join(" ");
            if !defines.is_empty() {
                self.defines.push(if self.sources.len() == 1 {
                    defines
                } else {
                    format!("{}: {defines}", program.file)
                });
            }
        }
    }

    /// Appends a launch to every run.
    pub(crate) fn step(&mut self, launch: Launch) {
        self.steps.push(launch);
    }

    /// Appends a launch to every upload (after the input is written).
    pub(crate) fn prepare(&mut self, launch: Launch) {
        self.prepare.push(launch);
    }

    /// A fact for `ExecInfo::details` (launch shape, tunables, notes on clamped defaults).
    pub(crate) fn detail(&mut self, key: &str, value: impl ToString) {
        self.details.insert(key.to_string(), value.to_string());
    }

    pub(crate) fn boxed(self) -> Box<dyn Algorithm> {
        Box::new(self)
    }

    fn not_uploaded(&self, call: &str) -> Error {
        Error::device(format!("`{call}` called before `upload` on {} `{}`", self.id.workload, self.id.variant))
    }

    /// Enqueues `launches` in order, `calls` times over, and waits for them; the span of their
    /// device time, from the first launch's start to the last one's end (`batch_span_ms`).
    fn execute(&self, launches: &[Launch], calls: usize) -> Result<Option<f64>, Error> {
        let total = launches.len() * calls;
        if total == 0 {
            return Ok(None);
        }
        let _one_at_a_time = self.device.launch_guard();
        let launch = |i: usize| &launches[i % launches.len()];
        batch_span_ms(
            &self.queue,
            total,
            &format!("running {} `{}`", self.id.workload, self.id.variant),
            |i| launch(i).enqueue(&self.queue),
            |i| launch(i).enqueue_untimed(&self.queue),
        )
        .map(Some)
    }
}

impl Algorithm for Planned {
    fn id(&self) -> &AlgorithmId {
        &self.id
    }

    fn exec_info(&self) -> ExecInfo {
        let mut details = self.details.clone();
        for (i, (file, sha)) in self.sources.iter().enumerate() {
            let key = if i == 0 { "kernel_sha256".to_string() } else { format!("kernel_sha256.{file}") };
            details.insert(key, sha.clone());
        }
        if let Some((file, _)) = self.sources.first() {
            details.insert("kernel_file".into(), format!("{file}.cl"));
        }
        details.insert("defines".into(), self.defines.join("; "));
        let launches: Vec<String> = self.steps.iter().map(Launch::describe).collect();
        details.insert("launches".into(), launches.join("; "));
        ExecInfo { isa: None, threads: None, details }
    }

    fn upload(&mut self, input: &Input) -> Result<Transfer, Error> {
        let given = input.problem()?;
        if given != self.problem {
            return Err(Error::input(format!(
                "input is {given}, but {} `{}` was planned for {}",
                self.id.workload, self.id.variant, self.problem
            )));
        }
        // A failed upload leaves buffers half written: no run until one succeeds.
        self.uploaded = false;
        let mut transfer = Transfer { ms: Some(0.0), bytes: 0 };
        for (role, buffer) in &mut self.inputs {
            let bytes = input_part(&self.id, *role, input, buffer.bytes())?;
            let event = buffer.write(&self.queue, bytes)?;
            transfer.ms = Some(transfer.ms.unwrap_or(0.0) + event_ms(&event)?);
            transfer.bytes += bytes.len() as u64;
        }
        // Arguments by value travel with each launch: no transfer of their own.
        for (slot, &(role, len)) in self.values.iter().enumerate() {
            let bytes = input_part(&self.id, role, input, len)?;
            for launch in self.prepare.iter().chain(&self.steps) {
                launch.set_value(slot, bytes)?;
            }
        }
        // Poison, so elements a kernel forgets to write fail verification instead of passing
        // with a previous run's values.
        let output = &mut self.output.buffer;
        match self.output.kind {
            OutKind::F32 => output.fill(&self.queue, f32::NAN)?,
            OutKind::U8 => output.fill(&self.queue, 0xA5u8)?,
            OutKind::Complex => output.fill(&self.queue, Complex32::new(f32::NAN, f32::NAN))?,
        };
        self.execute(&self.prepare, 1)?;
        self.queue.finish().map_err(|e| cl_failure(e, "finishing an upload"))?;
        self.uploaded = true;
        Ok(transfer)
    }

    fn run(&mut self) -> Result<RunTime, Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("run"));
        }
        Ok(RunTime { device_ms: self.execute(&self.steps, 1)? })
    }

    fn run_batch(&mut self, calls: usize) -> Result<RunTime, Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("run"));
        }
        Ok(RunTime { device_ms: self.execute(&self.steps, calls)? })
    }

    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("download"));
        }
        let OutputBuffer { kind, len, buffer } = &self.output;
        let (output, event) = match kind {
            OutKind::F32 => read_as(&self.queue, buffer, *len, Output::F32)?,
            OutKind::U8 => read_as(&self.queue, buffer, *len, Output::U8)?,
            OutKind::Complex => read_as(&self.queue, buffer, *len, Output::Complex)?,
        };
        Ok((output, Transfer { ms: Some(event_ms(&event)?), bytes: buffer.bytes() as u64 }))
    }

    /// Overwrites twice the device's last-level cache, so the next sample starts with none of
    /// its data cached.
    fn evict_device_caches(&mut self) -> Result<(), Error> {
        if self.eviction.is_none() {
            let bytes =
                eviction_bytes(self.device.is_gpu, self.device.limits.cache_bytes, self.device.limits.max_alloc);
            self.eviction = Some(DeviceBuffer::new(&self.device, bytes, "cache eviction").map_err(|e| {
                Error::device(format!("cannot evict the device caches ({} needed): {e}", mib(bytes as u64)))
            })?);
        }
        if let Some(buffer) = self.eviction.as_mut() {
            buffer.fill(&self.queue, 0x5A5A_5A5Au32)?;
        }
        self.queue.finish().map_err(|e| cl_failure(e, "evicting the device caches"))
    }
}

/// Bytes to overwrite to evict a cache: twice `CL_DEVICE_GLOBAL_MEM_CACHE_SIZE`, but at least
/// 256 MiB on GPUs, whose drivers may report a first-level figure (NVIDIA says 4 MiB on an H200
/// with 50 MB of L2); 64 MiB where nothing is reported; never more than one allocation holds.
fn eviction_bytes(is_gpu: bool, reported_cache: u64, max_alloc: u64) -> usize {
    let floor: u64 = if is_gpu { 256 << 20 } else { 0 };
    let wanted = if reported_cache == 0 { 64 << 20 } else { 2 * reported_cache };
    wanted.max(floor).min(max_alloc) as usize
}

fn read_as<T: Plain + Default>(
    queue: &CommandQueue,
    buffer: &DeviceBuffer,
    len: usize,
    wrap: fn(Vec<T>) -> Output,
) -> Result<(Output, Event), Error> {
    let mut values = vec![T::default(); len];
    let event = buffer.read(queue, &mut values)?;
    Ok((wrap(values), event))
}

/// The bytes of the part of `input` that `role` names, if `input` has it.
/// The part of `input` that `role` names for plan `id`, checked to hold the `len` bytes the plan
/// sized for it: another length means the input's buffers do not fit its own shape (its fields
/// are public, so nothing else checked that).
fn input_part<'a>(id: &AlgorithmId, role: Role, input: &'a Input, len: usize) -> Result<&'a [u8], Error> {
    let Some(bytes) = input_bytes(role, input) else {
        return Err(Error::input(format!(
            "{} `{}` cannot take this input (it has no {})",
            id.workload,
            id.variant,
            role_name(role)
        )));
    };
    if bytes.len() != len {
        return Err(Error::input(format!(
            "the {} holds {} bytes, the planned problem needs {len}",
            role_name(role),
            bytes.len()
        )));
    }
    Ok(bytes)
}

fn input_bytes(role: Role, input: &Input) -> Option<&[u8]> {
    Some(match (role, input) {
        (Role::Signal, Input::Conv1d { signal, .. }) => bytes_of(signal),
        (Role::Filter, Input::Conv1d { filter, .. }) => bytes_of(filter),
        (Role::Pixels, Input::BoxFilter { image, .. } | Input::Conv2d { image, .. }) => match &image.pixels {
            Pixels::U8(p) => bytes_of(p),
            Pixels::F32(p) => bytes_of(p),
        },
        (Role::Taps, Input::Conv2d { kernel, .. }) => bytes_of(kernel),
        (Role::Samples, Input::Fft { data, .. }) => bytes_of(data),
        (Role::LmsX, Input::Lms { x, .. }) => bytes_of(x),
        (Role::LmsD, Input::Lms { d, .. }) => bytes_of(d),
        _ => return None,
    })
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Signal => "signal",
        Role::Filter => "filter",
        Role::Pixels => "image",
        Role::Taps => "kernel taps",
        Role::Samples => "samples",
        Role::LmsX => "x",
        Role::LmsD => "d",
    }
}

#[cfg(test)]
mod tests {
    use super::eviction_bytes;

    #[test]
    fn eviction_covers_twice_the_cache_with_a_floor_on_gpus() {
        assert_eq!(eviction_bytes(false, 32 << 20, u64::MAX), 64 << 20);
        assert_eq!(eviction_bytes(false, 0, u64::MAX), 64 << 20);
        assert_eq!(eviction_bytes(true, 4 << 20, u64::MAX), 256 << 20);
        assert_eq!(eviction_bytes(true, 512 << 20, u64::MAX), 1 << 30);
        assert_eq!(eviction_bytes(true, 512 << 20, 100), 100);
    }
}
