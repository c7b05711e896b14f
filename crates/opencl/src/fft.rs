//! fft: paper 002's flow-graph FFT on the device, one launch per stage (`flow-graph`) and one
//! work-group per transform in local memory (`flow-graph-shared`), and our `stockham`.

use crate::launch::{group_limit, int, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::build;
use crate::stockham::{self, Path};
use crate::tunables::bounded;
use crate::PlanCtx;
use dspbench_core::{Algorithm, Complex32, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;

/// Largest `flow-graph` size: its matrix holds 1.5 N log2 N ints (N = 2^22: 553 MB), as the
/// scalar backend's.
const FLOW_GRAPH_MAX: usize = 1 << 22;
/// Largest `flow-graph-shared` size: 4096 points of float2 fill the 32 KiB of local memory
/// every OpenCL device has.
const SHARED_MAX: usize = 4096;

pub(crate) const FLOW_GRAPH: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "flow-graph",
    summary: "radix-2 butterflies driven by the index matrix in global memory, one launch per stage (paper 002's \
              devMatrixFFT)",
    tunables: &["blocks", "threads"],
    domain: Domain::PowerOfTwoSize { max_size: FLOW_GRAPH_MAX },
};

pub(crate) const FLOW_GRAPH_SHARED: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "flow-graph-shared",
    summary: "one transform per work-group in local memory, the whole matrix walked there (paper 002's \
              devMatrixMultyFFT)",
    tunables: &["threads"],
    domain: Domain::PowerOfTwoSize { max_size: SHARED_MAX },
};

pub(crate) const STOCKHAM: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "stockham",
    summary: "radix-16 Stockham autosort, all passes in local memory; four-step split beyond 4096 points \
              (our own; `path: registers`, NVIDIA's default: up to 16384 points a group, 32768 folded, with \
              points in registers, radix 32 from 256 points)",
    tunables: &["path", "exchange", "points_per_thread", "max_registers", "columns", "fold"],
    domain: Domain::PowerOfTwoSize { max_size: stockham::MAX_SIZE },
};

/// The paper's larger configuration for 1 x 65536 (4 blocks x 1024 threads).
const FLOW_GRAPH_BLOCKS: usize = 4;
const FLOW_GRAPH_THREADS: usize = 1024;
/// The paper's 64 x 512 for 64 x 1024.
const SHARED_THREADS: usize = 512;

fn sizes(ctx: &PlanCtx<'_>) -> Result<(usize, usize), Error> {
    match ctx.problem {
        Problem::Fft { size, batch } => Ok((size, batch)),
        other => Err(Error::input(format!("fft variant `{}` cannot take {other}", ctx.id.variant))),
    }
}

/// The radix-2 decimation-in-time flow graph of one size, as paper 002 lays it out (and as the
/// scalar backend's `flow-graph` walks it).
struct FlowGraph {
    stages: usize,
    /// Output i of the permutation is input `perm[i]`.
    perm: Vec<u32>,
    /// `stages` rows of N/2 (p1, p2) pairs, flattened.
    pairs: Vec<u32>,
    /// `stages` rows of N/2 indices into `twiddles`.
    twiddle_index: Vec<u32>,
    /// W_N^t for t < N/2, computed in f64 and rounded once.
    twiddles: Vec<Complex32>,
}

impl FlowGraph {
    fn new(size: usize) -> FlowGraph {
        let stages = size.trailing_zeros() as usize;
        let perm = (0..size as u32).map(|i| i.reverse_bits().checked_shr(32 - stages as u32).unwrap_or(0)).collect();
        let mut pairs = Vec::with_capacity(size * stages);
        let mut twiddle_index = Vec::with_capacity(size / 2 * stages);
        // Stage s combines transforms of `half` = 2^s points into ones of `span` = 2^(s+1),
        // whose twiddles W_span^j are every (N / span)-th entry of the N-point table.
        for stage in 0..stages {
            let half = 1usize << stage;
            let span = 2 * half;
            for start in (0..size).step_by(span) {
                for j in 0..half {
                    pairs.extend([(start + j) as u32, (start + j + half) as u32]);
                    twiddle_index.push((j * (size / span)) as u32);
                }
            }
        }
        let twiddles = (0..size / 2)
            .map(|k| {
                let angle = -2.0 * std::f64::consts::PI * k as f64 / size as f64;
                Complex32::new(angle.cos() as f32, angle.sin() as f32)
            })
            .collect();
        FlowGraph { stages, perm, pairs, twiddle_index, twiddles }
    }
}

/// `flow-graph`: the bit reversal, then one launch per stage, each over `blocks` x `threads`.
pub(crate) fn plan_flow_graph(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (size, batch) = sizes(ctx)?;
    let device = ctx.device;
    let program = build(device, "fft_flow_graph", &Defines::new())?;
    let limit =
        group_limit(device, &program, "fft_flow_graph_stage")?.min(group_limit(device, &program, "fft_bit_reverse")?);
    let reason = format!("the work-group limit of the flow-graph kernels on {}", device.name);
    let threads = bounded(ctx.tunables, "threads", FLOW_GRAPH_THREADS, limit, &reason)?;
    let blocks =
        bounded(ctx.tunables, "blocks", FLOW_GRAPH_BLOCKS, i32::MAX as usize / threads.value, "the int range")?;
    let graph = FlowGraph::new(size);

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::Complex)?;
    let input = plan.input(Role::Samples, 8 * size * batch)?;
    let output = plan.output();
    let perm = plan.table(&graph.perm, "bit-reversal permutation")?;
    let twiddles = plan.table(&graph.twiddles, "twiddles")?;
    let shape = ([blocks.value * threads.value, 1], [threads.value, 1]);
    let args = [input, output, perm, int(size)?, int(batch)?];
    plan.step(Launch::new(device, &program, "fft_bit_reverse", &args, shape.0, shape.1)?);
    let half = size / 2;
    for stage in 0..graph.stages {
        let pairs = plan.table(&graph.pairs[2 * half * stage..][..2 * half], "butterfly pairs")?;
        let index = plan.table(&graph.twiddle_index[half * stage..][..half], "twiddle indices")?;
        let args = [output, pairs, index, twiddles, int(size)?, int(batch)?];
        plan.step(Launch::new(device, &program, "fft_flow_graph_stage", &args, shape.0, shape.1)?);
    }
    plan.uses(&program);
    plan.detail("blocks", blocks.value);
    plan.detail("threads", threads.value);
    plan.detail("stages", graph.stages);
    plan.detail("matrix_bytes", 4 * (graph.perm.len() + graph.pairs.len() + graph.twiddle_index.len()));
    if let Some(note) = threads.note {
        plan.detail("note", note);
    }
    Ok(plan.boxed())
}

/// `flow-graph-shared`: one work-group per transform walks the whole matrix in local memory.
pub(crate) fn plan_flow_graph_shared(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (size, batch) = sizes(ctx)?;
    let entry = "fft_flow_graph_shared";
    let device = ctx.device;
    let program = build(device, entry, &Defines::new())?;
    let limit = group_limit(device, &program, entry)?;
    let threads = bounded(
        ctx.tunables,
        "threads",
        SHARED_THREADS,
        limit,
        &format!("the work-group limit of `{entry}` on {}", device.name),
    )?;
    let graph = FlowGraph::new(size);

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::Complex)?;
    let input = plan.input(Role::Samples, 8 * size * batch)?;
    let output = plan.output();
    let matrix = plan.table(&graph.pairs, "butterfly matrix")?;
    let index = plan.table(&graph.twiddle_index, "twiddle indices")?;
    let twiddles = plan.table(&graph.twiddles, "twiddles")?;
    let args = [input, output, matrix, index, twiddles, int(size)?];
    plan.step(Launch::new(device, &program, entry, &args, [batch * threads.value, 1], [threads.value, 1])?);
    plan.uses(&program);
    plan.detail("blocks", batch);
    plan.detail("threads", threads.value);
    if let Some(note) = threads.note {
        plan.detail("note", note);
    }
    Ok(plan.boxed())
}

/// `stockham`: samples -> output through `fft_stockham.cl`; tunables `path` (`shared`: the
/// all-in-local-memory kernel for every launch, the default but on NVIDIA; `registers`: the
/// register kernel), `exchange` (`split`, `whole`, or `halves`: split, a four-step group's columns
/// half at a time, a one-transform group's points by index), `points_per_thread` (8, 16, 32),
/// `max_registers` (NVIDIA's register cap, 16 to 255 or `none`; CUDA's launch-bounds figure by
/// default, 128 at 32 points a work-item), `columns` (a four-step group's columns) and `fold`
/// (`reads`: two groups a transform, each reading both halves; `none`: one group a transform, the
/// four-step beyond) of the register kernel.
pub(crate) fn plan_stockham(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (size, batch) = sizes(ctx)?;
    let choice = stockham_choice(ctx)?;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, ctx.device, OutKind::Complex)?;
    let input = plan.input(Role::Samples, 8 * size * batch)?;
    let output = plan.output();
    let launches = stockham::transform_with(&mut plan, size, batch, input, output, choice)?;
    plan.detail("passes", launches.len());
    for launch in launches {
        plan.step(launch);
    }
    Ok(plan.boxed())
}

fn stockham_choice(ctx: &PlanCtx<'_>) -> Result<stockham::Choice, Error> {
    let path = match ctx.tunables.string_opt("path")? {
        None => None,
        Some("shared") => Some(Path::Shared),
        Some("registers") => Some(Path::Registers),
        Some(other) => {
            return Err(Error::input(format!("fft `stockham` tunable `path` is shared or registers; got `{other}`")))
        }
    };
    let (split, halves) = match ctx.tunables.string_opt("exchange")? {
        None => (None, false),
        Some("split") => (Some(true), false),
        Some("whole") => (Some(false), false),
        Some("halves") => (Some(true), true),
        Some(other) => {
            return Err(Error::input(format!(
                "fft `stockham` tunable `exchange` is split, whole or halves; got `{other}`"
            )))
        }
    };
    let columns = ctx.tunables.positive_opt("columns")?;
    if let Some(c) = columns.filter(|c| !c.is_power_of_two()) {
        return Err(Error::input(format!("fft `stockham` tunable `columns` must be a power of two, got {c}")));
    }
    let per_thread = ctx.tunables.positive_opt("points_per_thread")?;
    if let Some(p) = per_thread.filter(|p| ![8, 16, 32].contains(p)) {
        return Err(Error::input(format!("fft `stockham` tunable `points_per_thread` is 8, 16 or 32, got {p}")));
    }
    let max_registers = crate::tunables::register_cap(ctx.tunables, "fft `stockham`")?;
    let fold = match ctx.tunables.string_opt("fold")? {
        None => None,
        Some("reads") => Some(true),
        Some("none") => Some(false),
        Some(other) => {
            return Err(Error::input(format!("fft `stockham` tunable `fold` is reads or none; got `{other}`")))
        }
    };
    Ok(stockham::Choice { path, split, per_thread, max_registers, halves, columns, fold })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_touches_every_point_once() {
        for stages in 0..=6 {
            let size = 1usize << stages;
            let graph = FlowGraph::new(size);
            assert_eq!(graph.pairs.len(), size * stages);
            for row in graph.pairs.chunks_exact(size.max(1)) {
                let mut seen = row.to_vec();
                seen.sort_unstable();
                assert!(seen.iter().copied().eq(0..size as u32), "size {size}: {row:?}");
            }
        }
        assert_eq!(FlowGraph::new(8).perm, [0, 4, 2, 6, 1, 5, 3, 7]);
    }

    /// The register kernel's four-step launches (strided sides column first, the twiddle) against
    /// the f64 reference: columns of 128 to 4096 points, 32 down to 4 a group (4096-point columns),
    /// every exchange (whole, split, split in halves: what NVIDIA's 48 KiB takes for 4096-point
    /// columns, forced here), 8 points a work-item in 512-point columns, odd batches.
    #[test]
    fn stockham_four_step_on_registers_agrees_with_the_reference() {
        use crate::OpenClBackend;
        use dspbench_core::{Backend, Params, PlanRequest};
        if !crate::conformance::device_ready() {
            return;
        }
        let info = OpenClBackend.variant(Workload::Fft, "stockham").unwrap();
        let cases = [(15, 3), (16, 1), (17, 3), (18, 1), (20, 1), (22, 1), (23, 1), (24, 1)];
        for (log2, batch) in cases {
            let problem = Problem::Fft { size: 1 << log2, batch };
            let registers = Params::new().with("path", "registers").with("fold", "none");
            let cases = [
                registers.clone(),
                registers.clone().with("exchange", "split"),
                registers.clone().with("exchange", "halves"),
            ];
            for tunables in &cases {
                let request = PlanRequest { problem, variant: "stockham", tunables, device: 0 };
                let details = OpenClBackend.plan(&request).expect("plan").exec_info().details;
                assert_eq!((details["path"].as_str(), details["fold"].as_str()), ("registers", "false"), "{problem}");
                let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, tunables);
                assert_eq!(
                    outcome.verdict,
                    dspbench_conformance::Verdict::Passed,
                    "{problem} {tunables:?}: {outcome:?}"
                );
            }
        }
    }

    /// The register kernel at every size it takes in one launch (1 to 16384 points in a group at
    /// 16 or 32 a work-item, 8192 at 8; twice that as two groups folding the halves), both exchanges
    /// and both radices, against the f64 reference, with partial last groups (odd batches); the
    /// exchange in index halves (what NVIDIA's 48 KiB takes for 16384 points, forced here) and
    /// the fold asked for and refused; and the shared path beside it, which takes 8192 points
    /// and more as a four-step pair.
    #[test]
    fn stockham_paths_agree_with_the_reference() {
        use crate::OpenClBackend;
        use dspbench_core::{Backend, Error, Params, PlanRequest};
        if !crate::conformance::device_ready() {
            return;
        }
        let info = OpenClBackend.variant(Workload::Fft, "stockham").unwrap();
        // The path taken without the tunable: registers on NVIDIA, shared elsewhere.
        let registers_default = crate::stockham::registers_by_default(crate::probe::device(0).unwrap());
        let with = |path: &str, exchange: &str, per_thread: usize| {
            Params::new().with("path", path).with("exchange", exchange).with("points_per_thread", per_thread)
        };
        for log2 in 0..=15 {
            for batch in [1, 3, 37] {
                let problem = Problem::Fft { size: 1 << log2, batch };
                let mut cases = vec![Params::new(), Params::new().with("path", "shared")];
                for (exchange, per_thread) in
                    [("split", 8), ("split", 16), ("split", 32), ("whole", 8), ("whole", 16), ("whole", 32)]
                {
                    cases.push(with("registers", exchange, per_thread));
                }
                if log2 >= 12 {
                    cases.push(with("registers", "halves", 16));
                    cases.push(with("registers", "halves", 32));
                }
                if log2 == 14 {
                    cases.push(Params::new().with("fold", "reads"));
                }
                if log2 == 15 {
                    cases.push(Params::new().with("fold", "none"));
                }
                for tunables in &cases {
                    let request = PlanRequest { problem, variant: "stockham", tunables, device: 0 };
                    let details = match OpenClBackend.plan(&request) {
                        Ok(planned) => planned.exec_info().details,
                        // A whole exchange of 16384 points at 16 a work-item takes 72 KiB: over
                        // NVIDIA's 48 KiB a group, refused as such.
                        Err(Error::Unsupported(m)) if m.contains("bytes of local memory") => continue,
                        Err(e) => panic!("{problem} {tunables:?}: {e}"),
                    };
                    let fold = tunables.string_opt("fold").unwrap();
                    let path = tunables.string_opt("path").unwrap();
                    let registers =
                        path == Some("registers") || fold.is_some() || (path.is_none() && registers_default);
                    assert_eq!(
                        details["path"],
                        if registers { "registers" } else { "shared" },
                        "{problem} {tunables:?}"
                    );
                    if registers {
                        // A group holds 16384 points at 16 a work-item, 8192 at 8.
                        let group =
                            if tunables.positive_opt("points_per_thread").unwrap() == Some(8) { 13 } else { 14 };
                        // A group's size and twice it fold by the batch (stockham::folds_by_default).
                        let folded = match fold {
                            Some(f) => Some(f == "reads"),
                            None => (log2 < group || log2 > group + 1).then_some(false),
                        };
                        if let Some(folded) = folded {
                            assert_eq!(details["fold"], folded.to_string(), "{problem} {tunables:?}");
                        }
                    }
                    let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, tunables);
                    assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
                }
            }
        }
        // Folding takes two groups' points at most; index halves, one column a group.
        let refused = |size: usize, batch: usize, tunables: Params| {
            let request = PlanRequest {
                problem: Problem::Fft { size, batch },
                variant: "stockham",
                tunables: &tunables,
                device: 0,
            };
            OpenClBackend.plan(&request).err().map(|e| e.to_string()).unwrap_or_default()
        };
        assert!(refused(1 << 16, 1, Params::new().with("fold", "reads")).contains("`fold: reads`"));
        // A batch that gives a group two transforms or more on a device of up to 4096 compute units
        // (256 gave NVIDIA's 132 one a group, which halves by index: call-208).
        assert!(refused(64, 1 << 14, with("registers", "halves", 16)).contains("`exchange: halves`"));
    }
}
