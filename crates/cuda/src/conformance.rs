//! Every variant against the f64 reference on the shared conformance matrix, one test per
//! variant, when CUDA is available; without it each prints why and passes, unless
//! `DSPBENCH_REQUIRE` names `cuda`. Plus the shared backend contract, and this backend's own
//! where no GPU is needed: availability, refusals, paper 004's configurations, the kernel files.

use crate::{CudaBackend, VARIANTS};
use dspbench_core::{Availability, Backend, DType, Error, ParamValue, Params, PlanRequest, Problem, Workload};
use dspbench_kernels::{embedded_names, source, Dialect};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// One backend for every test, so devices open once and kernels compile once.
fn backend() -> &'static CudaBackend {
    static BACKEND: OnceLock<CudaBackend> = OnceLock::new();
    BACKEND.get_or_init(CudaBackend::default)
}

/// The first GPU where CUDA is ready (see `cuda_ready`), for tests of this backend's own parts.
pub(crate) fn first_gpu() -> Option<std::sync::Arc<crate::context::Gpu>> {
    cuda_ready().then(|| backend().devices().expect("ready")[0].clone())
}

/// Whether the matrix can run here; says why not, and fails if `DSPBENCH_REQUIRE` names cuda.
fn cuda_ready() -> bool {
    dspbench_conformance::device_ready(backend())
}

fn suite(workload: Workload, variant: &str) {
    if cuda_ready() {
        dspbench_conformance::assert_conforms(backend(), workload, Some(variant));
    }
}

dspbench_conformance::conformance_tests! {
    suite: suite;
    backend: CudaBackend::default();
    conv1d_naive: Conv1d "naive";
    conv1d_const_filter: Conv1d "const-filter";
    conv1d_grid_stride: Conv1d "grid-stride";
    conv1d_tiled: Conv1d "tiled";
    conv1d_fft: Conv1d "fft";
    conv1d_fft_fused: Conv1d "fft-fused";
    box_filter_direct: BoxFilter "direct";
    box_filter_recursive: BoxFilter "recursive";
    box_filter_recursive_coalesced: BoxFilter "recursive-coalesced";
    box_filter_fast: BoxFilter "fast";
    conv2d_tiled: Conv2d "tiled";
    conv2d_fast: Conv2d "fast";
    fft_flow_graph: Fft "flow-graph";
    fft_flow_graph_shared: Fft "flow-graph-shared";
    fft_stockham: Fft "stockham";
    fft_mixed_radix: Fft "mixed-radix";
    fft_vendor: Fft "vendor";
    lms_per_channel: Lms "per-channel";
    lms_block: Lms "block";
}

#[test]
fn unknown_tunables_are_refused_by_name() {
    dspbench_conformance::assert_refuses_unknown_tunables(backend());
}

#[test]
fn uploads_of_another_problem_and_runs_before_upload_are_errors() {
    if cuda_ready() {
        dspbench_conformance::assert_life_cycle(backend());
    }
}

#[test]
fn batches_of_launches_replayed_as_graphs_give_verified_output() {
    if cuda_ready() {
        dspbench_conformance::assert_batches_compute_what_runs_compute(backend());
    }
}

#[test]
fn grid_stride_takes_any_block_count() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::Conv1d, "grid-stride").unwrap();
    for blocks in [1usize, 3, 1000] {
        let tunables = Params::new().with("blocks", blocks).with("threads", 64usize);
        let outcome =
            dspbench_conformance::check_case_with(backend(), 0, &info, &Problem::Conv1d { n: 4097, m: 33 }, &tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "blocks = {blocks}");
    }
}

#[test]
fn conv2d_tiled_runs_every_configuration_of_paper_004_table_2() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::Conv2d, "tiled").unwrap();
    for (radius, smem, threads, w, h) in dspbench_kernels::paper004::TABLE_2 {
        let tunables =
            Params::new().with("tile_w", w).with("tile_h", h).with("threads", threads).with("smem_bytes", smem);
        let problem = Problem::Conv2d { width: 1000, height: 77, radius, dtype: DType::U8 };
        let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "R={radius} {w}x{h} {threads} threads");
    }
}

/// The edge matrix's images are too small for a `registers` warp to lie wholly inside, so the
/// unclamped path is checked here: images with inner warps, widths that are and are not a
/// multiple of 4 (the word loads' alignment), both stagings, both types.
#[test]
fn conv2d_fast_stagings_agree_with_the_reference_inside_the_image_too() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::Conv2d, "fast").unwrap();
    for (width, height) in [(1000, 77), (517, 130), (4096, 9)] {
        for dtype in [DType::U8, DType::F32] {
            for radius in 1..=4 {
                for staging in ["registers", "tile"] {
                    let tunables = Params::new().with("staging", staging);
                    let problem = Problem::Conv2d { width, height, radius, dtype };
                    let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
                    assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {staging}");
                }
            }
        }
    }
    let registers = Params::new().with("staging", "registers");
    let request = PlanRequest {
        problem: Problem::Conv2d { width: 64, height: 64, radius: 5, dtype: DType::U8 },
        variant: "fast",
        tunables: &registers,
        device: 0,
    };
    assert!(matches!(backend().plan(&request), Err(Error::Unsupported(m)) if m.contains("radius up to 4")));
}

/// The edge matrix's images are too short for the fused `fast` kernel's unclamped column walks
/// and too narrow for its vector stores, and its windows stop at 33, so these are checked here:
/// images with strips wholly inside, widths that are and are not a multiple of 16 (the u8
/// stores' alignment) and of 4 (f32), windows either side of the fused path's limit (63), both
/// types; and the edge matrix's images at 63 and 65.
#[test]
fn box_filter_fast_agrees_with_the_reference_inside_large_images_too() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::BoxFilter, "fast").unwrap();
    let large = [(1024, 300), (1000, 290), (517, 260)].map(|size| (size, &[1, 3, 17, 19, 33, 63, 65][..]));
    let edge = [(1, 1), (7, 3), (3, 7), (33, 31), (255, 1), (1, 255), (64, 64)].map(|size| (size, &[63, 65][..]));
    for ((width, height), windows) in large.into_iter().chain(edge) {
        for dtype in [DType::U8, DType::F32] {
            for &window in windows {
                let problem = Problem::BoxFilter { width, height, window, dtype };
                let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &Params::new());
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
            }
        }
    }
}

/// The two word-width u8 forms of the fused kernel, each forced (the matrix's images, small,
/// take the word form by default): the ring form's strips wholly inside and at every edge,
/// widths a multiple of 16 (16-byte copies, staged stores) and of 4 only (4-byte copies, rows
/// stored directly), windows up to 63; the default's pick on deep strips (ring) and shallow ones
/// (words); and `form` where it does not apply (f32, widths not a multiple of 4, windows past
/// 63), a bad input naming it.
#[test]
fn box_filter_fast_ring_and_word_forms_agree_with_the_reference() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::BoxFilter, "fast").unwrap();
    for (width, height) in [(1024, 300), (1000, 290), (260, 1100), (1040, 1100), (64, 64), (4, 5), (256, 7)] {
        // The tensor-core form takes widths a multiple of 16 (and GPUs of sm_80 on).
        for form in ["ring", "words", "mma"].into_iter().filter(|&f| f != "mma" || width % 16 == 0) {
            // Every shape of the tensor-core form's (1 + ceil(2r / 32) groups, ceil((16 + r + 4
            // ceil(r / 4)) / 32) column steps) either side of its changes.
            let windows: &[usize] =
                if form == "mma" { &[1, 3, 17, 19, 25, 33, 35, 49, 51, 63] } else { &[1, 3, 17, 19, 33, 63] };
            for &window in windows {
                let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
                let tunables = Params::new().with("form", form);
                let request = PlanRequest { problem, variant: "fast", tunables: &tunables, device: 0 };
                if let Err(Error::Unsupported(m)) = backend().plan(&request) {
                    assert!(form == "mma" && m.contains("compute capability 8.0"), "{problem} {form}: {m}");
                    continue;
                }
                let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {form}");
            }
        }
    }
    // Wider tensor-core blocks (tunable `mma_columns`), every shape, and pass 2 at G = 3 both ways
    // (tunable `mma_pass2`: Hopper's warpgroup products by default on sm_90, each warp's mma.sync
    // elsewhere), every G = 3 window either side of the shapes' changes, and one strip (the
    // warpgroup form's deeper walk, MMA_DEEP_WALK, down the images of 8 blocks' rows and more, its
    // steps no multiple of its unrolling); on images narrower than a block and with blocks past the
    // right edge; and the even and tails spreads (tunable `mma_spread`), whose blocks' shares cross
    // from one column to the next (1040 x 1100: 9 columns of 35 output blocks over a wave of blocks;
    // at G = 3 on an H100, 29 strips of one block a column and 3 spare blocks, each a tail of 6 and
    // 12 blocks of the other tails), and the tails spread at UHD (its spare blocks one output block
    // of another column's tail after their own).
    let every_shape: &[usize] = &[1, 17, 19, 33, 35, 51, 63];
    let g3: &[usize] = &[35, 47, 49, 51, 63];
    let forced = [
        ("mma_columns", ParamValue::Int(256), every_shape),
        ("mma_columns", ParamValue::Int(512), every_shape),
        ("mma_pass2", ParamValue::Str("mma".into()), g3),
        ("mma_pass2", ParamValue::Str("wgmma".into()), g3),
        ("strips", ParamValue::Int(1), g3),
        ("mma_spread", ParamValue::Str("even".into()), every_shape),
        ("mma_spread", ParamValue::Str("tails".into()), every_shape),
    ];
    // A case asked for passes, unless the GPU lacks the integer mma.
    let passes_where_planned = |problem: Problem, tunables: &Params| {
        let request = PlanRequest { problem, variant: "fast", tunables, device: 0 };
        if let Err(Error::Unsupported(m)) = backend().plan(&request) {
            assert!(m.contains("compute capability"), "{problem} {tunables:?}: {m}");
            return;
        }
        let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
    };
    for (width, height) in [(1040, 1100), (1024, 300), (64, 64), (256, 7)] {
        for (name, value, windows) in &forced {
            for &window in *windows {
                let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
                passes_where_planned(problem, &Params::new().with("form", "mma").with(name, value.clone()));
            }
        }
    }
    for window in [45, 63] {
        let problem = Problem::BoxFilter { width: 3840, height: 2160, window, dtype: DType::U8 };
        passes_where_planned(problem, &Params::new().with("form", "mma").with("mma_spread", "tails"));
    }
    // The folded spread (`mma_spread: folded`) where the last column of blocks is at most half a
    // block wide: 16 and 64 columns, the image one folded column, fewer rows than a block, one
    // strip.
    let folded = Params::new().with("form", "mma").with("mma_spread", "folded");
    for (width, height) in [(1040, 1100), (1088, 300), (64, 64), (1040, 7)] {
        for (tunables, windows) in [(folded.clone(), every_shape), (folded.clone().with("strips", 1usize), g3)] {
            for &window in windows {
                passes_where_planned(Problem::BoxFilter { width, height, window, dtype: DType::U8 }, &tunables);
            }
        }
    }
    let plan = |width, height, dtype, window, tunables: &Params| {
        let problem = Problem::BoxFilter { width, height, window, dtype };
        backend().plan(&PlanRequest { problem, variant: "fast", tunables, device: 0 })
    };
    // The deeper walk where its rule says, on Hopper: one strip of 35 blocks, not 2.
    let gpu = backend().devices().unwrap()[0].clone();
    if gpu.facts.compute_capability == (9, 0) {
        let one_strip = Params::new().with("form", "mma").with("strips", 1usize);
        let defines =
            |height| plan(1040, height, DType::U8, 35, &one_strip).unwrap().exec_info().details["defines"].clone();
        assert!(defines(1100).contains("-DMMA_DEEP_WALK=1"), "{}", defines(1100));
        assert!(!defines(64).contains("MMA_DEEP_WALK"), "{}", defines(64));
        // The folded spread by default where the strips of 264 slots take two waves and the last
        // column is half a block (4800^2 at G = 3: 37 x 7 strips, the folded column in 5), the
        // tails where a batch's calls are launched dependently, the image lies in the L2 and spare
        // blocks save a step (UHD and 3840 x 2400 at G = 3: 8 strips a column, 24 spare blocks), the
        // even spread where the strips leave steps to gain and no column folds (5K at G = 3; UHD too
        // where its calls are launched plainly); none of them at G <= 2, on DCI 4K (too few spare
        // blocks) or on 8K (beyond the L2, one wave); strips asked keep strips.
        let defines_of = |width, height, window, tunables: &Params| {
            plan(width, height, DType::U8, window, tunables).unwrap().exec_info().details["defines"].clone()
        };
        if gpu.facts.limits.sms == 132 {
            let none = Params::new();
            let folded = defines_of(4800, 4800, 63, &none);
            assert!(folded.contains("-DMMA_FOLD=5") && !folded.contains("MMA_EVEN_SPREAD"), "{folded}");
            assert!(defines_of(5120, 2880, 63, &none).contains("-DMMA_EVEN_SPREAD=1"));
            assert!(defines_of(3840, 2160, 63, &Params::new().with("pdl", "off")).contains("-DMMA_EVEN_SPREAD=1"));
            for (width, height) in [(3840, 2160), (3840, 2400)] {
                let tails = defines_of(width, height, 63, &none);
                assert!(tails.contains("-DMMA_TAILS_STRIPS=8") && !tails.contains("MMA_EVEN_SPREAD"), "{tails}");
            }
            for (width, height, window, tunables) in [
                (4800, 4800, 5, none.clone()),
                (3840, 2160, 31, none.clone()),
                (4096, 2160, 63, none.clone()),
                (7680, 4320, 63, none.clone()),
                (4800, 4800, 63, none.with("strips", 13usize)),
            ] {
                let defines = defines_of(width, height, window, &tunables);
                let spread = ["MMA_FOLD", "MMA_EVEN_SPREAD", "MMA_TAILS_STRIPS"];
                assert!(spread.iter().all(|d| !defines.contains(d)), "{width} x {height} m = {window}: {defines}");
            }
        }
    }
    let entry = |width, height, window| {
        plan(width, height, DType::U8, window, &Params::new()).unwrap().exec_info().details["entries"].clone()
    };
    // Widths a multiple of 16 take the tensor cores where the GPU has them, by the shared rule
    // (windows up to 49, and up to 63 where their strips are 3 blocks deep); the others the ring
    // form on strips of 12 batches and more (4320 rows fill GPUs of up to ~150 SMs so), the word
    // form on shallower ones (352 rows never fill them).
    for (width, height, window, otherwise) in [
        (7680, 4320, 33, "box_filter_fast_ring_u8"),
        (7680, 4320, 49, "box_filter_fast_ring_u8"),
        (7680, 4320, 63, "box_filter_fast_ring_u8"),
        (7680, 352, 63, "box_filter_fast_fused_u8x4"),
        (7684, 4320, 33, "box_filter_fast_ring_u8"),
    ] {
        let tensor_cores = crate::box_fast::mma_takes_by_default(&gpu, DType::U8, width, height, window);
        let expected = if tensor_cores { "box_filter_fast_mma_u8" } else { otherwise };
        assert_eq!(entry(width, height, window), expected, "{width} x {height}, m = {window}");
    }
    let ring = Params::new().with("form", "ring");
    for (width, dtype, window) in [(1024, DType::F32, 31), (1022, DType::U8, 31), (1024, DType::U8, 65)] {
        let err = plan(width, 300, dtype, window, &ring).err().expect("a bad input");
        assert!(matches!(&err, Error::Input(m) if m.contains("`form`")), "{width} {dtype} {window}: {err}");
    }
    let mma = Params::new().with("form", "mma");
    let err = plan(1000, 300, DType::U8, 31, &mma).err().expect("a bad input");
    assert!(matches!(&err, Error::Input(m) if m.contains("`form`") && m.contains("16")), "{err}");
    let odd_columns = Params::new().with("form", "mma").with("mma_columns", 192usize);
    if gpu.facts.compute_capability.0 >= 8 {
        let err = plan(1024, 300, DType::U8, 31, &odd_columns).err().expect("a bad input");
        assert!(matches!(&err, Error::Input(m) if m.contains("`mma_columns`")), "{err}");
    }
    let f32_columns = Params::new().with("mma_columns", 256usize);
    let err = plan(1024, 300, DType::F32, 31, &f32_columns).err().expect("a bad input");
    assert!(matches!(&err, Error::Input(m) if m.contains("`mma_columns`")), "{err}");
    // Pass 2 by warpgroup products at G <= 2, or an unknown pass 2; `mma_pass2` outside the
    // tensor-core form.
    if gpu.facts.compute_capability.0 >= 8 {
        for (window, pass2) in [(31, "wgmma"), (63, "hmma")] {
            let tunables = Params::new().with("form", "mma").with("mma_pass2", pass2);
            let err = plan(1024, 300, DType::U8, window, &tunables).err().expect("a bad input");
            assert!(matches!(&err, Error::Input(m) if m.contains("`mma_pass2")), "{window} {pass2}: {err}");
        }
    }
    // The even or tails spread beside strips or wider blocks, or an unknown spread; outside the
    // tensor-core form.
    if gpu.facts.compute_capability.0 >= 8 {
        let even = Params::new().with("form", "mma").with("mma_spread", "even");
        for (tunables, named) in [
            (even.clone().with("strips", 4usize), "`strips`"),
            (even.clone().with("mma_columns", 256usize), "256"),
            (Params::new().with("form", "mma").with("mma_spread", "rows"), "`rows`"),
            (Params::new().with("form", "mma").with("mma_spread", "folded"), "1024"),
            (Params::new().with("form", "mma").with("mma_spread", "tails").with("strips", 4usize), "`strips`"),
        ] {
            let err = plan(1024, 300, DType::U8, 31, &tunables).err().expect("a bad input");
            assert!(matches!(&err, Error::Input(m) if m.contains("`mma_spread") && m.contains(named)), "{err}");
        }
        // More columns of blocks than the GPU holds blocks at once leave the tails no strip a column.
        let tails = Params::new().with("form", "mma").with("mma_spread", "tails");
        let err = plan(1 << 17, 8, DType::U8, 63, &tails).err().expect("a bad input");
        assert!(
            matches!(&err, Error::Input(m) if m.contains("`mma_spread: tails`") && m.contains("1024 columns")),
            "{err}"
        );
    }
    let f32_spread = Params::new().with("mma_spread", "even");
    let err = plan(1024, 300, DType::F32, 63, &f32_spread).err().expect("a bad input");
    assert!(matches!(&err, Error::Input(m) if m.contains("`mma_spread`")), "{err}");
    let f32_pass2 = Params::new().with("mma_pass2", "mma");
    let err = plan(1024, 300, DType::F32, 63, &f32_pass2).err().expect("a bad input");
    assert!(matches!(&err, Error::Input(m) if m.contains("`mma_pass2`")), "{err}");
}

/// The f32 copy-engine form (kernels/cuda/box_filter_fast_tma.cu), forced: images narrower than a
/// block, with blocks past the right edge, strips shorter than a batch and strips not a whole
/// number of batches (a short batch inside the image, stored by the threads), one strip and
/// several, windows either side of a batch's reach; its default on sm_90 (deep strips: UHD; not
/// 1000 x 999); and `f32_form` where it does not apply, a bad input naming it.
/// The fused kernel in any number of strips of whole batches: 300 rows in 1, 3, 7 and 40 strips
/// are strips of 300, 128, 64 and 32 rows, the image's last batch short (12 rows, the predicated
/// edge path), with m = 63 windows reaching past both edges of the short strips; width 1021 takes
/// the byte-a-thread kernel for u8 and direct runs at the right edge for f32.
#[test]
fn box_filter_fast_fused_takes_any_number_of_strips() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::BoxFilter, "fast").unwrap();
    for (width, dtype) in [(1021, DType::U8), (1024, DType::F32), (1021, DType::F32)] {
        for window in [17, 63] {
            for strips in [1usize, 3, 7, 40] {
                let problem = Problem::BoxFilter { width, height: 300, window, dtype };
                let mut tunables = Params::new().with("strips", strips);
                if dtype == DType::F32 {
                    tunables = tunables.with("f32_form", "fused");
                }
                let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
    }
}

/// The u8 tensor-core form's strips sharing their boundary groups (tunable `mma_boundary: shared`:
/// each strip's last two groups from the strip below, through its cluster's shared memory): every
/// G = 3 window either side of its shapes' changes, in 2 to 8 strips, the last strip a whole
/// number of blocks or short (300 rows in 2 and 4 strips: 140 and 12 rows at the bottom), the
/// default strips of UHD and DCI 4K; and where it does not apply (a spread other than strips, G <=
/// 2, 9 strips, an empty strip), a bad input naming it.
#[test]
fn box_filter_fast_mma_strips_sharing_their_boundary_agree_with_the_reference() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::BoxFilter, "fast").unwrap();
    let shared = Params::new().with("form", "mma").with("mma_boundary", "shared");
    let plan = |problem: Problem, tunables: &Params| {
        backend().plan(&PlanRequest { problem, variant: "fast", tunables, device: 0 })
    };
    // (width, height), windows, strip counts asked (none: the one-wave strips).
    type Case = ((usize, usize), &'static [usize], &'static [usize]);
    let cases: [Case; 5] = [
        ((1040, 1100), &[35, 47, 49, 51, 63], &[2, 4, 7]),
        ((1024, 300), &[35, 63], &[2, 4]),
        ((256, 100), &[45, 63], &[2]),
        ((3840, 2160), &[45, 63], &[]),
        ((4096, 2160), &[63], &[]),
    ];
    for ((width, height), windows, strip_counts) in cases {
        for &window in windows {
            let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
            let asked: Vec<Params> = if strip_counts.is_empty() {
                vec![shared.clone()]
            } else {
                strip_counts.iter().map(|&n| shared.clone().with("strips", n)).collect()
            };
            for tunables in asked {
                let planned = match plan(problem, &tunables) {
                    Ok(planned) => planned,
                    // Before sm_80 no integer mma; before sm_90 no warpgroup products to share for.
                    Err(Error::Unsupported(m) | Error::Input(m)) if m.contains("compute capability") => return,
                    Err(e) => panic!("{problem} {tunables:?}: {e}"),
                };
                let defines = planned.exec_info().details["defines"].clone();
                assert!(defines.contains("-DMMA_CLUSTER_STRIPS="), "{problem} {tunables:?}: {defines}");
                let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
    }
    let refused = [
        (3840, 2160, 63, shared.clone().with("mma_spread", "tails"), "`mma_spread`"),
        (3840, 2160, 17, shared.clone(), "windows of 35 to 63"),
        (1040, 1100, 63, shared.clone().with("strips", 9usize), "2 to 8 strips"),
        (1040, 1100, 63, shared.clone().with("strips", 8usize), "none empty"),
        (1040, 1100, 63, Params::new().with("form", "mma").with("mma_boundary", "theirs"), "`own` or `shared`"),
    ];
    for (width, height, window, tunables, named) in refused {
        let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
        let err = plan(problem, &tunables).err().expect("a bad input");
        assert!(matches!(&err, Error::Input(m) if m.contains(named)), "{problem} {tunables:?}: {err}");
    }
}

#[test]
fn box_filter_fast_tma_agrees_with_the_reference() {
    if !cuda_ready() {
        return;
    }
    let gpu = backend().devices().unwrap()[0].clone();
    let info = backend().variant(Workload::BoxFilter, "fast").unwrap();
    let plan = |width, height, dtype, window, tunables: &Params| {
        let problem = Problem::BoxFilter { width, height, window, dtype };
        backend().plan(&PlanRequest { problem, variant: "fast", tunables, device: 0 })
    };
    let tma = Params::new().with("f32_form", "tma");
    if gpu.facts.compute_capability.0 < 9 {
        let err = plan(1024, 300, DType::F32, 31, &tma).err().expect("unsupported");
        assert!(matches!(&err, Error::Unsupported(m) if m.contains("9.0")), "{err}");
        return;
    }
    let images = [(4, 5), (100, 37), (196, 33), (388, 300), (1000, 999), (1024, 1100), (5120, 40)];
    for (width, height) in images {
        for window in [1, 3, 17, 31, 33, 63] {
            let problem = Problem::BoxFilter { width, height, window, dtype: DType::F32 };
            let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tma);
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
        }
    }
    for strips in [1usize, 3, 7] {
        let tunables = Params::new().with("f32_form", "tma").with("strips", strips);
        for window in [5, 63] {
            let problem = Problem::BoxFilter { width: 1024, height: 1100, window, dtype: DType::F32 };
            let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} in {strips} strips");
        }
    }
    let entry = |width, height, window, tunables: &Params| {
        plan(width, height, DType::F32, window, tunables).unwrap().exec_info().details["entries"].clone()
    };
    assert_eq!(entry(3840, 2160, 63, &Params::new()), "box_filter_fast_tma_f32");
    assert_eq!(entry(1000, 999, 63, &Params::new()), "box_filter_fast_fused");
    assert_eq!(entry(3840, 2160, 63, &Params::new().with("f32_form", "fused")), "box_filter_fast_fused");
    for (width, dtype, window, form) in [
        (1024, DType::U8, 31, "tma"),
        (1024, DType::U8, 31, "fused"),
        (1022, DType::F32, 31, "tma"),
        (1024, DType::F32, 65, "tma"),
        (1024, DType::F32, 31, "engine"),
    ] {
        let tunables = Params::new().with("f32_form", form);
        let err = plan(width, 300, dtype, window, &tunables).err().expect("a bad input");
        assert!(matches!(&err, Error::Input(m) if m.contains("`f32_form`")), "{width} {dtype} {window} {form}: {err}");
    }
    let err = plan(3840, 2160, DType::F32, 31, &Params::new().with("pdl", "on")).err().expect("a bad input");
    assert!(matches!(&err, Error::Input(m) if m.contains("`pdl`")), "{err}");
}

/// An image beyond the L2 (input and output over three quarters of it, MMA_BEYOND_L2) takes the
/// tensor-core form's other staging at G = 3 (the copy engine's loads on sm_90): a G = 2 shape and
/// both G = 3 ones on the smallest such image of 4096 columns (its strips' first and last groups
/// clamped at the image's edges), against the reference.
#[test]
fn box_filter_fast_mma_beyond_the_l2_agrees_with_the_reference() {
    if !cuda_ready() {
        return;
    }
    let gpu = backend().devices().unwrap()[0].clone();
    let info = backend().variant(Workload::BoxFilter, "fast").unwrap();
    let width = 4096;
    let height = 3 * gpu.facts.l2_bytes / 8 / width + 37;
    for window in [17, 45, 63] {
        let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
        let tunables = Params::new().with("form", "mma");
        let request = PlanRequest { problem, variant: "fast", tunables: &tunables, device: 0 };
        let plan = match backend().plan(&request) {
            Err(Error::Unsupported(m)) if m.contains("compute capability 8.0") => return,
            planned => planned.unwrap(),
        };
        let defines = plan.exec_info().details["defines"].clone();
        assert!(defines.contains("-DMMA_BEYOND_L2=1"), "{problem}: {defines}");
        let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
    }
}

/// The matrix's 2^15-point batches (1 and 3) take the four-step's two launches; batches of two
/// transforms an SM take the folded launch (fft_stockham.rs, `folds`), checked here by default
/// and in both its forms with a batch past that for any GPU of up to 300 SMs (the cluster form
/// needs sm_90), the four-step at the same batch beside them, and both forms asked for at 3.
#[test]
fn stockham_folds_large_batches_of_2_to_the_15_points_and_agrees_with_the_reference() {
    if !cuda_ready() {
        return;
    }
    let info = backend().variant(Workload::Fft, "stockham").unwrap();
    let large = Problem::Fft { size: 1 << 15, batch: 600 };
    let small = Problem::Fft { size: 1 << 15, batch: 3 };
    let cases = [
        (large, Params::new(), "-DFOLD="),
        (large, Params::new().with("fold", "cluster"), "-DFOLD=2"),
        (large, Params::new().with("fold", "reads"), "-DFOLD=1"),
        (large, Params::new().with("first_len", 128usize), "-DFOLD=0"),
        (small, Params::new().with("fold", "cluster"), "-DFOLD=2"),
        (small, Params::new().with("fold", "reads"), "-DFOLD=1"),
    ];
    for (problem, tunables, fold) in cases {
        let request = PlanRequest { problem, variant: "stockham", tunables: &tunables, device: 0 };
        let defines = match backend().plan(&request) {
            Ok(plan) => plan.exec_info().details["defines"].clone(),
            Err(Error::Unsupported(m)) if m.contains("clusters") => continue, // before sm_90
            Err(e) => panic!("{tunables:?}: {e}"),
        };
        assert!(defines.contains(fold), "{tunables:?}: {defines}");
        let outcome = dspbench_conformance::check_case_with(backend(), 0, &info, &problem, &tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
    }
}

/// 32 points a thread forced (radix-32 passes, at most 128 registers): fft `stockham`'s register
/// kernel at every size a block holds, exchanged split and whole, staged ahead, and in the
/// four-step's passes beyond, and conv1d `fft-fused` at transforms of 4096 to 16384 points,
/// against the f64 reference; the shared kernel, which holds 8 or 16, refuses it. (The fold at 32
/// points, its default, is the test above's.)
#[test]
fn thirty_two_points_a_thread_agree_with_the_reference() {
    if !cuda_ready() {
        return;
    }
    let stockham = backend().variant(Workload::Fft, "stockham").unwrap();
    let at_32 = || Params::new().with("points_per_thread", 32usize);
    for log2 in 0..=16 {
        for batch in [1, 37] {
            let problem = Problem::Fft { size: 1 << log2, batch };
            let mut cases = vec![at_32().with("path", "registers"), at_32().with("exchange", "whole")];
            if log2 >= 1 {
                cases.push(at_32().with("path", "pipelined"));
            }
            for tunables in &cases {
                let outcome = dspbench_conformance::check_case_with(backend(), 0, &stockham, &problem, tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
    }
    let fused = backend().variant(Workload::Conv1d, "fft-fused").unwrap();
    for (n, m, fft_len) in [(30_000, 1000, 4096usize), (50_000, 3000, 8192), (60_000, 5000, 16384), (3, 8192, 16384)] {
        let problem = Problem::Conv1d { n, m };
        let tunables = at_32().with("fft_len", fft_len);
        let outcome = dspbench_conformance::check_case_with(backend(), 0, &fused, &problem, &tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
    }
    let shared = at_32().with("path", "shared");
    let request = PlanRequest {
        problem: Problem::Fft { size: 1024, batch: 1 },
        variant: "stockham",
        tunables: &shared,
        device: 0,
    };
    assert!(matches!(backend().plan(&request), Err(Error::Input(_))));
}

#[test]
fn availability_is_a_reason_or_described_devices_never_a_panic() {
    match backend().availability() {
        Availability::Unavailable { reason } => assert!(!reason.is_empty()),
        Availability::Ready { devices } => {
            assert!(!devices.is_empty());
            let details = &devices[0].details;
            for key in ["compute_capability", "sms", "l2_bytes", "memory_bytes", "driver_version", "copy_gbps"] {
                assert!(details.contains_key(key), "missing {key}: {details:?}");
            }
            // The roof by both ways, the driver's copy and ours (copy_roof.rs).
            assert!(!details.contains_key("copy_failed"), "{details:?}");
            let by = &details["copy_gbps_by"];
            assert!(by.contains("driver copy") && by.contains("copy kernel"), "{by}");
        }
    }
}

#[test]
fn without_cuda_a_plan_is_a_device_error_naming_the_reason() {
    if let Availability::Unavailable { reason } = backend().availability() {
        let request = PlanRequest {
            problem: Problem::Conv1d { n: 8, m: 3 },
            variant: "naive",
            tunables: &Params::new(),
            device: 0,
        };
        match backend().plan(&request) {
            Err(Error::Device(msg)) => assert!(msg.contains(&reason), "{msg}"),
            other => panic!("expected a device error, got {:?}", other.err()),
        }
    }
}

#[test]
fn foreign_tunables_and_problems_outside_a_domain_are_refused_before_any_device_is_touched() {
    let plan =
        |problem, variant, tunables: &Params| backend().plan(&PlanRequest { problem, variant, tunables, device: 0 });
    let tile = Params::new().with("tile_w", 64usize);
    assert!(
        matches!(plan(Problem::Conv1d { n: 8, m: 3 }, "naive", &tile), Err(Error::Input(m)) if m.contains("`tile_w`"))
    );
    let none = Params::new();
    let long_filter = Problem::Conv1d { n: 8, m: 16385 };
    assert!(matches!(plan(long_filter, "const-filter", &none), Err(Error::Unsupported(m)) if m.contains("16384 taps")));
    let odd_fft = Problem::Fft { size: 1000, batch: 1 };
    assert!(matches!(plan(odd_fft, "stockham", &none), Err(Error::Unsupported(m)) if m.contains("power-of-two")));
    let big_shared = Problem::Fft { size: 8192, batch: 1 };
    assert!(matches!(plan(big_shared, "flow-graph-shared", &none), Err(Error::Unsupported(_))));
    let wide_u8 = Problem::BoxFilter { width: 4, height: 4, window: 4101, dtype: DType::U8 };
    assert!(matches!(plan(wide_u8, "recursive", &none), Err(Error::Unsupported(_))));
    assert!(matches!(plan(Problem::Conv1d { n: 8, m: 3 }, "nonesuch", &none), Err(Error::Input(_))));
}

#[test]
fn every_kernel_file_is_run_by_some_variant_or_the_roof_and_every_named_one_exists() {
    // The variants' kernels, the copy kernel the roof is measured by and the launch floor's.
    let mut named: BTreeSet<&str> = VARIANTS.iter().flat_map(|v| v.kernels.iter().copied()).collect();
    named.insert(crate::copy_roof::COPY_FILE);
    named.insert(crate::launch_floor::FLOOR_FILE);
    let files: BTreeSet<String> =
        embedded_names(Dialect::Cuda).iter().filter_map(|f| f.strip_suffix(".cu")).map(str::to_string).collect();
    let named_owned: BTreeSet<String> = named.iter().map(|s| s.to_string()).collect();
    assert_eq!(files, named_owned, "kernels/cuda/*.cu and the variants' kernel lists differ");
    for name in named {
        assert!(source(Dialect::Cuda, name).is_ok(), "{name}");
    }
}

#[test]
fn the_kernels_limits_match_the_domains() {
    let text = |name| source(Dialect::Cuda, name).unwrap().text;
    let taps = format!("#define MAX_TAPS {}", crate::conv1d_direct::MAX_TAPS);
    assert!(text(crate::conv1d_direct::CONST_FILTER_FILE).contains(&taps));
    assert!(text(crate::conv1d_direct::GRID_STRIDE_FILE).contains(&taps));
    let Some(dspbench_core::Domain::PowerOfTwoSize { max_size }) =
        VARIANTS.iter().find(|v| v.info.name == "flow-graph-shared").map(|v| v.info.domain)
    else {
        panic!("flow-graph-shared declares a power-of-two domain")
    };
    assert!(text(crate::fft_flow_graph::SHARED_FILE).contains(&format!("#define MAX_SIZE {max_size}")));
    let fused_radius = dspbench_kernels::box_fast::FUSED_MAX_WINDOW / 2;
    assert!(text(crate::box_fast::FILE).contains(&format!("#define FUSED_MAX_RADIUS {fused_radius}")));
}
