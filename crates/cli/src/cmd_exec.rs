use crate::error::CliError;
use crate::npy;
use dspbench_core::{Availability, Input, ParamValue, Params, PlanRequest, Problem, Workload};
use dspbench_results::Status;
use dspbench_runner::{execute_cell, new_record, Registry, SamplingPlan};
use dspbench_scenario::Sampling;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ExecArgs {
    /// conv1d, box-filter, conv2d, fft or lms.
    workload: String,
    /// The variant to run (see `dspbench list`); with --kernel, the name the record gives it
    /// [default: the file's name].
    #[arg(long, required_unless_present = "kernel")]
    variant: Option<String>,
    /// The backend to run on [default: scalar; with --kernel, the file's: cuda for .cu, opencl for .cl].
    #[arg(long)]
    backend: Option<String>,
    /// A kernel file of your own (.cu or .cl), launched exactly as built-in variant --like
    /// launches its kernel (entry points, arguments, geometry: kernels/README.md).
    #[arg(long, requires = "like", value_name = "FILE")]
    kernel: Option<PathBuf>,
    /// The built-in variant whose kernel file --kernel replaces, e.g. `tiled`.
    #[arg(long, requires = "kernel", value_name = "VARIANT")]
    like: Option<String>,
    /// Device index within the backend.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// A parameter, `key=value` (box-filter: window=M; lms: taps=L, and block, mu, snr_db;
    /// tunables such as threads=2).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Input .npy files: conv1d: signal, filter; box-filter: image; conv2d: image, kernel; fft: complex64 data;
    /// lms: x, d (float32, 1-D or channels x samples), the true echo path (channels x taps).
    #[arg(long = "input", value_name = "FILE", required = true)]
    inputs: Vec<PathBuf>,
    /// Where to write the result (.npy).
    #[arg(long)]
    output: PathBuf,
    /// The most timed samples after one warm-up run; sampling stops earlier once the median is
    /// known to ±1% (95% interval) or two seconds have passed.
    #[arg(long, alias = "repetitions", default_value_t = 100)]
    max_samples: usize,
    /// Print the timing record as JSON on stdout.
    #[arg(long)]
    json: bool,
}

pub fn run(args: ExecArgs) -> Result<(), CliError> {
    let workload: Workload = args.workload.parse().map_err(CliError::Input)?;
    let params = parse_params(&args.params)?;
    let registry = Registry::compiled();
    let kernel_backend = match &args.kernel {
        Some(path) => Some(dspbench_scenario::backend_of(&path.to_string_lossy()).ok_or_else(|| {
            CliError::Input(format!("--kernel {}: a kernel file ends in .cu (CUDA) or .cl (OpenCL)", path.display()))
        })?),
        None => None,
    };
    let backend_name = match (&args.backend, kernel_backend) {
        (Some(given), Some(file)) if given != file => {
            return Err(CliError::Input(format!("--backend {given}: --kernel is a {file} kernel file")))
        }
        (Some(given), _) => given.clone(),
        (None, Some(file)) => file.to_string(),
        (None, None) => "scalar".to_string(),
    };
    let backend = registry.get(&backend_name).ok_or_else(|| {
        CliError::Input(format!(
            "--backend: unknown backend `{backend_name}` (this build has: {})",
            registry.names().join(", ")
        ))
    })?;
    // With --kernel, the variant planned is the one it is like; the record carries its own name.
    let variant = backend.variant(workload, args.like.as_deref().or(args.variant.as_deref()).unwrap_or_default())?;
    let name = match (&args.kernel, &args.variant) {
        (Some(_), Some(given)) => given.clone(),
        (Some(path), None) => path.file_stem().map_or("custom".into(), |s| s.to_string_lossy().into_owned()),
        (None, _) => variant.name.to_string(),
    };
    let device = match backend.availability() {
        Availability::Unavailable { reason } => {
            return Err(CliError::Failed(format!("backend `{}` is not available: {reason}", backend.name())))
        }
        Availability::Ready { devices } => devices.into_iter().find(|d| d.index == args.device).ok_or_else(|| {
            CliError::Input(format!("--device: backend `{}` has no device {}", backend.name(), args.device))
        })?,
    };
    let (input, fft_rank) = read_input(workload, &args.inputs, &params)?;
    let problem = input.problem()?;
    let tunables = params.without(workload.param_names());
    variant.check_tunables(&tunables)?;
    if args.max_samples == 0 {
        return Err(CliError::Input("--max-samples must be at least 1".into()));
    }

    let mut all_params = problem.to_params();
    all_params.0.extend(tunables.0.clone());
    let mut record = new_record("exec", workload, backend.name(), &name, Some(&device.name), all_params);
    let request = PlanRequest { problem, variant: variant.name, tunables: &tunables, device: device.index };
    let defaults = Sampling::default();
    let sampling = SamplingPlan::from(&Sampling {
        warmup: 1,
        min_samples: defaults.min_samples.min(args.max_samples),
        max_samples: args.max_samples,
        ..defaults
    });
    let output = execute_cell(backend, &request, args.kernel.as_deref(), &input, sampling, &mut record);
    if let Some(output) = &output {
        npy::write_output(&args.output, output, &problem, fft_rank)?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&record).expect("records serialise"));
    }
    match record.status {
        Status::Ok => {
            let k = record.kernel_ms.expect("measured");
            eprintln!(
                "{workload} {name} on {}: {} ms (median of {}), verified ({}); wrote {}",
                backend.name(),
                dspbench_report::fmt_ms(k.median),
                k.n,
                record.verification.as_ref().map(|v| v.coverage.as_str()).unwrap_or(""),
                args.output.display()
            );
            Ok(())
        }
        Status::Skipped => Err(CliError::Input(record.reason.unwrap_or_default())),
        _ => Err(CliError::Failed(format!("{}: {}", record.status.name(), record.reason.unwrap_or_default()))),
    }
}

fn parse_params(pairs: &[String]) -> Result<Params, CliError> {
    let mut params = Params::new();
    for pair in pairs {
        let (key, value) =
            pair.split_once('=').ok_or_else(|| CliError::Input(format!("--param `{pair}`: expected KEY=VALUE")))?;
        params.insert(key.trim(), ParamValue::parse(value.trim()));
    }
    Ok(params)
}

fn expect_inputs(workload: Workload, inputs: &[PathBuf], names: &[&str]) -> Result<(), CliError> {
    if inputs.len() != names.len() {
        return Err(CliError::Input(format!(
            "{workload} takes {} --input file(s): {}; got {}",
            names.len(),
            names.join(", "),
            inputs.len()
        )));
    }
    Ok(())
}

/// The input of `workload` from the user's files; for fft also the rank of the file (1 or 2).
fn read_input(workload: Workload, inputs: &[PathBuf], params: &Params) -> Result<(Input, usize), CliError> {
    match workload {
        Workload::Conv1d => {
            expect_inputs(workload, inputs, &["signal (1-D float32)", "filter (1-D float32)"])?;
            let signal = npy::read_f32_vector(&inputs[0])?;
            let filter = npy::read_f32_vector(&inputs[1])?;
            Ok((Input::conv1d(signal, filter)?, 1))
        }
        Workload::BoxFilter => {
            expect_inputs(workload, inputs, &["image (2-D uint8 or float32)"])?;
            let window = params.positive("window")?;
            Ok((Input::BoxFilter { image: npy::read_image(&inputs[0])?, window }, 2))
        }
        Workload::Conv2d => {
            expect_inputs(workload, inputs, &["image (2-D uint8 or float32)", "kernel (2-D float32, 2R+1 square)"])?;
            let image = npy::read_image(&inputs[0])?;
            let (kernel, radius) = npy::read_kernel(&inputs[1])?;
            Ok((Input::Conv2d { image, kernel, radius }, 2))
        }
        Workload::Fft => {
            expect_inputs(workload, inputs, &["data (complex64, 1-D or batch x size)"])?;
            let (data, size, batch, rank) = npy::read_complex(&inputs[0])?;
            Ok((Input::Fft { data, size, batch }, rank))
        }
        Workload::Lms => {
            let names = ["x (float32, channels x samples)", "d (same shape)", "echo path (float32, channels x taps)"];
            expect_inputs(workload, inputs, &names)?;
            let (x, channels) = npy::read_f32_rows(&inputs[0])?;
            let (d, d_channels) = npy::read_f32_rows(&inputs[1])?;
            let (echo, echo_channels) = npy::read_f32_rows(&inputs[2])?;
            if (d.len(), d_channels, echo_channels) != (x.len(), channels, channels) {
                return Err(CliError::Input(format!(
                    "{} and {}: lms needs d of x's shape and one echo path per channel of x ({channels})",
                    inputs[1].display(),
                    inputs[2].display()
                )));
            }
            // The filter's setup comes from the parameters, with the scenario defaults.
            let mut setup = params.clone();
            setup.insert("n", (x.len() / channels).into());
            setup.insert("channels", channels.into());
            setup.insert("echo_taps", (echo.len() / channels).into());
            let Problem::Lms { taps, block, mu, snr_db, .. } = Problem::from_params(workload, &setup)? else {
                unreachable!("the lms workload reads an lms problem")
            };
            let input = Input::Lms { x, d, echo, channels, taps, block, mu, snr_db };
            input.problem()?;
            Ok((input, 1))
        }
    }
}
