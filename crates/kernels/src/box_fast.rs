//! box-filter `fast`'s fused launch (kernels/*/box_filter_fast.{cu,cl}), the same in both GPU
//! dialects: which entry an image takes and how its groups tile the image. The two-pass form
//! for larger windows launches differently per dialect and stays in each backend.

use dspbench_core::{DType, Error, Params};

/// Largest window of the fused kernels: 2 FUSED_MAX_RADIUS + 1 in the kernel files.
pub const FUSED_MAX_WINDOW: usize = 63;
/// Threads of a fused group (FUSED_THREADS x 1; U8_THREADS for the word form).
pub const FUSED_THREADS: usize = 256;

/// One fused launch: `groups` groups of [`FUSED_THREADS`] x 1, each covering `out_cols` output
/// columns of a strip of `strip_rows` rows (the kernels derive the strip from the group count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FusedLaunch {
    pub entry: &'static str,
    /// How the record names the path.
    pub path: &'static str,
    pub out_cols: usize,
    pub strip_rows: usize,
    /// Groups across the columns and down the rows.
    pub groups: (usize, usize),
}

/// The fused launch for an image, or None when the window needs the two-pass form. u8 images
/// whose width is a multiple of 4 take the word form, `box_filter_fast_fused_u8x4` (a word of 4
/// pixels per column walker, packed 16-bit column sums; its U8_OUT_COLS = 192).
///
/// `strip_rows` is the strip height for a backend that does not know how many groups the device
/// holds at once (measured on an H100 at 7680 x 4320, m = 5..63, among strips of 32, 64 and 128
/// rows: f32 fastest with 32, u8 with 128). Both kernels take any number of strips, and a backend
/// that knows its resident groups replaces `groups.1` by [`one_wave_strips`] (CUDA from the
/// compiled kernel's occupancy, OpenCL on NVIDIA from the register count): one wave beat every
/// fixed height (f32: 0.1195 / 0.1274 / 0.1380 ms at m = 5 / 31 / 63 against 0.135 / 0.164 /
/// 0.197 with strips of 32 rows, same kernel and call; u8 word form 0.047-0.065 ms against
/// 0.049-0.072 with 64 rows and 0.054-0.071 with 256).
pub fn fused_launch(dtype: DType, width: usize, height: usize, window: usize) -> Option<FusedLaunch> {
    if window > FUSED_MAX_WINDOW {
        return None;
    }
    let (entry, path) = match dtype {
        DType::U8 if width % 4 == 0 => ("box_filter_fast_fused_u8x4", "fused u8x4"),
        _ => ("box_filter_fast_fused", "fused"),
    };
    let strip_rows = match dtype {
        DType::U8 => 128,
        DType::F32 => 32,
    };
    let out_cols = 192;
    Some(FusedLaunch {
        entry,
        path,
        out_cols,
        strip_rows,
        groups: (width.div_ceil(out_cols), height.div_ceil(strip_rows)),
    })
}

/// The error for tunable `strips` (groups down the image of the fused kernel) given with a window
/// the fused kernel does not take, the same in both GPU backends.
pub fn strips_without_fused(window: usize) -> Error {
    Error::input(format!(
        "box-filter `fast` tunable `strips` applies to the fused kernel (windows up to {FUSED_MAX_WINDOW}), not to \
         m = {window}"
    ))
}

/// Rows one batch of a fused kernel covers (BATCH_ROWS; the word form's U8_GROUPS x
/// U8_GROUP_ROWS): the shortest strip.
pub const BATCH_ROWS: usize = 32;

/// Strips (groups down the rows) of a fused launch with `column_groups` groups across, given
/// `slots`, the groups the device holds at once: the fewest waves whose groups fill at least 90%
/// of the slots (a grid of 2.6 waves of short strips leaves the last wave 40% idle, and every strip
/// pays a window start), so at 7680 x 4320 on 132 SMs x 4 groups, 13 strips of 336 rows (520
/// groups in 528 slots) instead of 34 of 128, and with 2 groups an SM 6 strips (240 groups in 264
/// slots: one wave measured faster than two of 13, call-46). The kernels take any strip height;
/// strips keep at least one batch of rows.
pub fn one_wave_strips(column_groups: usize, height: usize, slots: usize) -> usize {
    let most = height.div_ceil(BATCH_ROWS).max(1);
    let column_groups = column_groups.max(1);
    let slots = slots.max(1);
    let fill = |strips: usize| {
        let groups = column_groups * strips;
        groups as f64 / (groups.div_ceil(slots) * slots) as f64
    };
    let mut best = 1;
    for waves in 1..=8 {
        let strips = (waves * slots / column_groups).clamp(1, most);
        if fill(strips) >= 0.9 {
            return strips;
        }
        if fill(strips) > fill(best) {
            best = strips;
        }
        if strips == most {
            break;
        }
    }
    best
}

/// The two fused kernels for u8 images of widths a multiple of 4 (tunable `form`): the word form
/// `box_filter_fast_fused_u8x4`, and the ring form `box_filter_fast_ring_u8` (every row copied
/// once into a ring of rows in shared / local memory, column walkers and row sums on different
/// warps; each dialect's file says how it fits its memory). Each backend's planner says which
/// it takes by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum U8Form {
    Words,
    Ring,
    /// Both window sums as products with band matrices on the tensor cores (CUDA, widths a
    /// multiple of 16: kernels/cuda/box_filter_fast_mma.cu).
    Mma,
}

/// Whether an image of `bytes` (its output as many) lies beyond an L2 of `l2_bytes` for the
/// tensor-core form: input and output together over three quarters of it. Smaller images, which
/// repeated runs (or the kernel that made them) leave in the L2, and larger ones, read from
/// memory, are staged differently by each backend (CUDA's kernel file's MMA_BEYOND_L2 and
/// OpenCL's `engine_staging` say how and by how much: 4096^2 and 7680 x 2160 of 33 MB within an
/// H100's 50 MB, 4800^2 of 46 MB beyond).
pub fn beyond_l2(l2_bytes: usize, bytes: usize) -> bool {
    4 * 2 * bytes > 3 * l2_bytes
}

/// Output columns a group of the tensor-core form covers (MMA_OUT_COLS in both kernel files).
pub const MMA_OUT_COLS: usize = 128;

/// The widest window the tensor-core form takes by default on any image (where the device has
/// it: CUDA's sm_80 on, NVIDIA's OpenCL), the last of its shape (3, 2). H100, kernel ms, the form
/// against the running-sum forms, same rounds (reports/2026-11-26-h100/experiments/call-127, CUDA):
/// 7680 x 4320 m = 5 / 31 / 45 0.0323 / 0.0362 / 0.0413 against ring 0.0363 (the tensor-core form
/// before session 14) / 0.0382 / 0.0426; 4096 x 4096 m = 45 0.0227 against words 0.0260.
pub const MMA_MAX_DEFAULT_WINDOW: usize = 49;

/// Past MMA_MAX_DEFAULT_WINDOW (G = 3 groups an output block), the tensor-core form takes images
/// whose one-wave strips are at least this deep (three output blocks): each strip pays G - 1 = 2
/// steps before its first outputs, which doubles the steps of strips one or two blocks deep. H100,
/// m = 51 / 63, the three forms in the same rounds (`call-133`, 12 image sizes): on 352-row images
/// (strips of 32 to 44 rows) the word form led by up to 21%; on every image of 8 MP and more
/// (strips of 128 rows and more) the tensor cores were ahead or within 5% on CUDA (4096 x 4096
/// 0.0243 / 0.0243 against words 0.0274 / 0.0283; 7680 x 4320 0.0447 / 0.0446 against ring 0.0435 /
/// 0.0450; 4096 x 2160 0.0175 / 0.0176 against words 0.0166 / 0.0172) and within 6% of the ring
/// form or ahead on NVIDIA's OpenCL.
pub const MMA_MIN_WIDE_STRIP_ROWS: usize = 96;

/// Rows of the tensor-core form's one-wave strips on a device holding `slots` of its groups at once.
pub fn mma_strip_rows(width: usize, height: usize, slots: usize) -> usize {
    height.div_ceil(one_wave_strips(width.div_ceil(MMA_OUT_COLS), height, slots))
}

/// Whether the tensor-core form takes a u8 image by default where the device has it, `slots` of
/// its groups at once: widths a multiple of 16 (its 16-byte copies and stores), windows up to
/// MMA_MAX_DEFAULT_WINDOW, and up to 63 where its strips are MMA_MIN_WIDE_STRIP_ROWS deep.
pub fn mma_by_default(dtype: DType, width: usize, height: usize, window: usize, slots: usize) -> bool {
    dtype == DType::U8
        && width % 16 == 0
        && window <= FUSED_MAX_WINDOW
        && (window <= MMA_MAX_DEFAULT_WINDOW || mma_strip_rows(width, height, slots) >= MMA_MIN_WIDE_STRIP_ROWS)
}

/// The tensor-core form's shape for a window up to 63: (G, KH), the groups of 32 input rows an
/// output block of 32 rows needs (1 + ceil(2r / 32)) and pass 1's steps of 32 columns (16 output
/// columns need 16 + 2r, read from r rounded up to 4 or, for 8-byte loads, to 8 left of them:
/// ceil((16 + r + 4 ceil(r / 4)) / 32), the same with 8 ceil(r / 8) at every r up to 31).
pub fn mma_shape(window: usize) -> (usize, usize) {
    let r = window / 2;
    (1 + (2 * r).div_ceil(32), (16 + r + r.div_ceil(4) * 4).div_ceil(32))
}

/// Output blocks of 32 rows down a strip from which the warpgroup form's walk with `cp.async`
/// staging runs unrolled 8 times instead of 4 (the kernel files' MMA_DEEP_WALK), CUDA's and
/// NVIDIA's OpenCL's alike (OpenCL, 4 -> 8 times, call-243: 4096^2 m = 63 0.0190 -> 0.0188, 4096 x
/// 2160 0.0130 -> 0.0128, 8K level, 2048^2 0.0088 -> 0.0092, 1040 x 1100 m = 55 0.0066 -> 0.0072):
/// faster down deep strips, slower down short ones, whose walks spend more of their time in the longer code's
/// first steps. H100, kernel ms, 4 -> 8 times, by blocks a strip (reports/2026-11-26-h100/
/// experiments call-235, call-236): 16 (4096^2 m = 45 / 63) 0.0168 / 0.0181 -> 0.0164-0.0166 /
/// 0.0177; 9 (4096 x 2160 and 3840 x 2160 m = 63) 0.0119 -> 0.0116-0.0118; 4 (2048^2 m = 63,
/// 2560 x 1440 m = 45) 0.0076 / 0.0068 -> 0.0077 / 0.0071; 2 (1920 x 1080 m = 63, 1040 x 1100
/// m = 35) 0.0053 / 0.0050 -> 0.0056 / 0.0053. With the copy engine's staging (images beyond the
/// L2) level.
pub const DEEP_WALK_BLOCKS: usize = 8;

/// Output rows a block of the tensor-core form (the kernel file's STEP_ROWS).
pub const MMA_BLOCK_ROWS: usize = 32;

/// Whether strips of an image of `height` rows in `strips` are deep enough for the longer walk
/// (the kernel's strip height: rows a strip rounded up to whole blocks).
pub fn deep_walk(height: usize, strips: usize) -> bool {
    strip_blocks(height, strips) >= DEEP_WALK_BLOCKS
}

/// Output blocks a strip of the tensor-core form walks, an image of `height` rows in `strips`
/// (the kernels' strip height: rows a strip rounded up to whole blocks).
fn strip_blocks(height: usize, strips: usize) -> usize {
    height.div_ceil(strips.max(1)).div_ceil(MMA_BLOCK_ROWS)
}

/// Output blocks of the folded column's upper half: half a column's, rounded up (the kernels'
/// `fold_rows`).
fn folded_half_blocks(height: usize) -> usize {
    height.div_ceil(MMA_BLOCK_ROWS).div_ceil(2)
}

/// How the tensor-core form spreads an image's output blocks (32 rows of a column of blocks) over
/// its blocks (tunable `mma_spread`): `strips`, a block a strip of one column (the grid columns x
/// strips, `one_wave_strips`), or `even`, as many blocks as the device holds at once, each the
/// same share of the output blocks in column order, walking down each column its share reaches
/// (the kernel file's MMA_EVEN_SPREAD). Where the columns of blocks divide the slots badly (38
/// columns against 264 slots at 4800^2), strips leave a wave part empty or run a second; an even
/// share fills one wave, at the cost of a second walk's start in the blocks whose share crosses
/// a column and of blocks reading at scattered rows (`even_spread_by_default` has the figures).
/// Or `folded`: strips, the image's last column of blocks, at most half a block wide, walked with
/// its rows in two halves side by side (the kernel file's MMA_FOLD), so that it takes half the
/// strips of a full column (`folded_strips`). Or `tails` (CUDA's kernel): strips aligned across the
/// columns, as many a column as the slots hold, and each column's last rows (its tail) a block of
/// the slots left, whose blocks then share the tails of the columns they do not cover (`TailSpread`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmaSpread {
    Strips,
    Even,
    Folded,
    Tails,
}

impl MmaSpread {
    /// Tunable `mma_spread`, if given: `strips` or `even`, else a bad input naming it.
    pub fn asked(tunables: &Params) -> Result<Option<MmaSpread>, Error> {
        match tunables.string_opt("mma_spread")? {
            None => Ok(None),
            Some("strips") => Ok(Some(MmaSpread::Strips)),
            Some("even") => Ok(Some(MmaSpread::Even)),
            Some("folded") => Ok(Some(MmaSpread::Folded)),
            Some("tails") => Ok(Some(MmaSpread::Tails)),
            Some(other) => Err(Error::input(format!(
                "box-filter `fast` tunable `mma_spread` is `strips`, `even`, `folded` or `tails`, not `{other}`"
            ))),
        }
    }

    /// The spread both planners take where none is asked, `slots` of the form's blocks at once (at
    /// G = `groups`, unfolded): the folded one where `folded_by_default` says, else, where a batch's
    /// calls are launched dependently and the image lies within the L2, the tails where
    /// `tails_by_default` says, else the even one
    /// where `even_spread_by_default` says, which needs the image's place against the L2
    /// (`beyond`; unknown: strips) and whether a batch's calls are launched dependently
    /// (`dependent`: CUDA's MMA_PDL), else strips.
    pub fn by_default(
        width: usize,
        height: usize,
        slots: usize,
        groups: usize,
        beyond: Option<bool>,
        dependent: bool,
    ) -> MmaSpread {
        if folded_by_default(width, height, slots, groups) {
            MmaSpread::Folded
        } else if beyond == Some(false) && dependent && tails_by_default(width, height, slots, groups) {
            MmaSpread::Tails
        } else if beyond.is_some_and(|beyond| even_spread_by_default(width, height, slots, groups, beyond, dependent)) {
            MmaSpread::Even
        } else {
            MmaSpread::Strips
        }
    }
}

/// Where a strip's last two output blocks find the groups of rows below the strip (tunable
/// `mma_boundary`): `own`, the strip stages and sums them itself (the default), or `shared`, the
/// strip below hands over the pass-2 operands it made of them as its first two groups (CUDA's
/// kernel alone, through a thread-block cluster of a column's strips: the kernel file's
/// MMA_CLUSTER_STRIPS, with its figures; 1.3-2x slower on an H100, so never a default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmaBoundary {
    Own,
    Shared,
}

impl MmaBoundary {
    /// Tunable `mma_boundary`: `own` (also where it is not given) or `shared`, else a bad input
    /// naming it.
    pub fn asked(tunables: &Params) -> Result<MmaBoundary, Error> {
        match tunables.string_opt("mma_boundary")? {
            None | Some("own") => Ok(MmaBoundary::Own),
            Some("shared") => Ok(MmaBoundary::Shared),
            Some(other) => Err(Error::input(format!(
                "box-filter `fast` tunable `mma_boundary` is `own` or `shared`, not `{other}`"
            ))),
        }
    }
}

/// The tails spread of an image over `slots` blocks (the kernel file's MMA_TAILS_STRIPS and
/// MMA_TAILS_STEPS): `strips` strips a column of `strip_blocks` output blocks each, every column's
/// strips at the same rows, then a tail band of `tail_blocks` output blocks a column. Each of the
/// `spare` blocks left walks one column's tail whole (columns 0 .. spare), and then its even share
/// of the other columns' tails, in column order, a walk a column its share reaches. Under
/// dependent launches a walk that starts the block walks its window's first rows under the call
/// ahead; only the second walks start in the middle of the call, and they are short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TailSpread {
    pub strips: usize,
    pub strip_blocks: usize,
    pub tail_blocks: usize,
    pub spare: usize,
}

impl TailSpread {
    /// The spread of `columns` columns of `per_column` output blocks over `slots` blocks, or none
    /// where the slots hold no strip a column.
    pub fn new(columns: usize, per_column: usize, slots: usize) -> Option<TailSpread> {
        let strips = slots / columns.max(1);
        if strips == 0 || per_column == 0 {
            return None;
        }
        let spare = slots - columns * strips;
        // With no block to spare, strips as deep as the column needs and no tail.
        let strip_blocks = if spare == 0 { per_column.div_ceil(strips) } else { (per_column / strips).max(1) };
        let tail_blocks = per_column.saturating_sub(strips * strip_blocks);
        Some(TailSpread { strips, strip_blocks, tail_blocks, spare: if tail_blocks == 0 { 0 } else { spare } })
    }

    /// The walks of spare block `spare_block` after its own column's tail: (column, first output
    /// block, end) within the tail band, its even share of the tails of columns spare .. columns in
    /// column order (the kernel's loop, which this mirrors).
    pub fn second_walks(&self, columns: usize, spare_block: usize) -> Vec<(usize, usize, usize)> {
        let rest = columns.saturating_sub(self.spare) * self.tail_blocks;
        if self.spare == 0 || rest == 0 {
            return Vec::new();
        }
        let (mut at, end) = (rest * spare_block / self.spare, rest * (spare_block + 1) / self.spare);
        let mut walks = Vec::new();
        while at < end {
            let (column, first) = (self.spare + at / self.tail_blocks, at % self.tail_blocks);
            let last = self.tail_blocks.min(first + end - at);
            walks.push((column, first, last));
            at += last - first;
        }
        walks
    }

    /// Steps of the slowest block with G = `groups`, each walk G - 1 steps before its outputs: a
    /// strip's, or a spare block's tail and second walks.
    pub fn critical_steps(&self, columns: usize, groups: usize) -> usize {
        let strip = self.strip_blocks + groups - 1;
        let spare = (0..self.spare).map(|b| {
            let second: usize =
                self.second_walks(columns, b).iter().map(|&(_, first, last)| last - first + groups - 1).sum();
            self.tail_blocks + groups - 1 + second
        });
        spare.fold(strip, usize::max)
    }
}

/// Whether the tensor-core form takes the tails spread by default where a batch's calls are launched
/// dependently (CUDA's MMA_PDL) and the image lies within the L2, `slots` of its blocks at once and
/// G = `groups`: at G = 3, where spare blocks walk the tails and the slowest block's steps come to
/// fewer than the one-wave strips' and no more than the even spread's. Its strips start their
/// walks at the call's start, under the call ahead, as the strips do; only the spare blocks' second
/// walks, a block or two, start in the middle of the call. H100s, u8, CUDA's dependent launches,
/// kernel time of strips and of the even spread over the tails', round by round in the same
/// rounds, two processes a call (calls 376-377 on two cards,
/// reports/2026-11-26-h100/experiments/calls-376-379.tar.xz), m = 45 / 63:
/// - UHD (10 steps against the strips' 11 and the even spread's 10): strips 1.008-1.014 /
///   1.018-1.021, even 1.069-1.071 / 1.059 (8.21 / 8.94 us against 8.25 / 9.11, call 377);
/// - 3840 x 2400 (11 against 12 and 11): strips 1.046-1.047 / 1.054-1.058, even 1.034-1.035 / 1.028;
/// - 5120 x 2160, 4480 x 2520, 3840 x 2880 (13 against 14 and 13), 5120 x 3200 (18 against 19
///   and 18), 4608 x 3456 (17 against 18 and 17): strips 1.022-1.070, even 1.012-1.021 / 1.004-1.009
///   (the even spread the previous default; call 377).
///
/// At G = 2 (396 slots, UHD 13 strips of 5 and 6 spare blocks for 30 tails of 3) its spare blocks
/// take 12 blocks of others' tails: 3.4x the strips' time at m = 31, which the step count says.
/// Launched plainly (call 378, CUDA with `pdl: off`) the tails beat the strips but not the even
/// spread, those launches' default on these images (even / tails 0.964-0.992 at m = 63 past UHD).
/// Without a call ahead to walk under, every block's first walk starts at once, and the even
/// spread's shorter slowest block tells.
pub fn tails_by_default(width: usize, height: usize, slots: usize, groups: usize) -> bool {
    if groups != 3 {
        return false;
    }
    let columns = width.div_ceil(MMA_OUT_COLS);
    let Some(tails) = TailSpread::new(columns, height.div_ceil(MMA_BLOCK_ROWS), slots) else { return false };
    let strips = one_wave_strips(columns, height, slots);
    let steps = tails.critical_steps(columns, groups);
    tails.spare > 0
        && steps < strips_critical_steps(width, height, slots, groups, strips)
        && steps <= even_critical_steps(width, height, slots, groups)
}

/// Whether the image's last column of tensor-core blocks is at most half a block wide, the one the
/// folded spread folds.
pub fn last_column_folds(width: usize) -> bool {
    (1..=MMA_OUT_COLS / 2).contains(&(width % MMA_OUT_COLS))
}

/// Blocks the folded column needs with strips of `strips`, so that none walks more output blocks
/// than a full column's strip: its upper half's rows (half the output blocks, rounded up) in
/// strips no deeper than the full columns'.
pub fn folded_column_blocks(height: usize, strips: usize) -> usize {
    folded_half_blocks(height).div_ceil(strip_blocks(height, strips).max(1))
}

/// The folded spread's strips, (full columns', folded column's), with `columns` columns of blocks,
/// the last one folded, on a device holding `slots` blocks at once: the full columns in the most
/// strips whose blocks and the folded column's fit one wave (or the strips asked, or if none fits
/// `one_wave_strips`' count), the folded column in as many of the slots they leave as it has
/// blocks and rows for, at least the blocks it needs. 4800^2 at G = 3 on 264 slots: 37 x 7 + 5.
pub fn folded_strips(columns: usize, height: usize, slots: usize, asked: Option<usize>) -> (usize, usize) {
    let most = height.div_ceil(MMA_BLOCK_ROWS).max(1);
    let full = columns.saturating_sub(1);
    let strips = asked.unwrap_or_else(|| {
        (1..=most)
            .take_while(|&strips| full * strips + folded_column_blocks(height, strips) <= slots)
            .last()
            .unwrap_or_else(|| one_wave_strips(columns, height, slots))
    });
    let left = slots.saturating_sub(full * strips);
    let fold = left.min(strips).min(folded_half_blocks(height)).max(folded_column_blocks(height, strips));
    (strips, fold)
}

/// Steps of 32 rows the slowest block of the folded spread takes with G groups an output block, and
/// whether its blocks fit the slots in one wave: the full columns' strips and the folded
/// column's (`folded_strips`).
pub fn folded_critical_steps(width: usize, height: usize, slots: usize, groups: usize) -> (usize, bool) {
    let columns = width.div_ceil(MMA_OUT_COLS);
    let (strips, fold) = folded_strips(columns, height, slots, None);
    let fold_blocks = folded_half_blocks(height).div_ceil(fold);
    let one_wave = (columns - 1) * strips + fold <= slots;
    (strip_blocks(height, strips).max(fold_blocks) + groups - 1, one_wave)
}

/// Whether the tensor-core form folds the image's last column by default (`MmaSpread::Folded`),
/// `slots` of its blocks at once and G = `groups`: at G = 3, where the last column is at most half
/// a block wide and the folded spread fits one wave in at most EVEN_SPREAD_GAIN of the strips'
/// steps and no more than the even spread's, whose steps cost more (`even_spread_by_default`).
/// H100, u8, us, the same rounds (reports/2026-11-26-h100/experiments/calls-351-358.tar.xz):
/// - 4800^2 m = 45 / 63, 37 columns of 7 strips and the folded column in 5 (24 steps), against
///   two waves of 13 strips (2 x 14) and the even spread (24, each dearer): 25.49 / 26.97 and
///   23.54 / 24.62 -> 21.00 / 22.50 (call 352), as 4736 x 4800's one wave of 7 strips (20.88 /
///   21.98);
/// - 6720 x 4480 (36 against 31 and 30 steps): 0.862 / 0.866 of the strips, 0.926 / 0.947 of the
///   even spread (call 354);
/// - where the folded spread takes the strips' steps, 3-5% slower than them (5184 x 3456 m = 45 /
///   63, 20 steps either way: 1.048 / 1.032; 2880^2 1.049 / 1.035); at G <= 2, whose 396 slots
///   the strips fill, 4800^2 m = 5 / 31 0.990 / 1.006 (call 352).
pub fn folded_by_default(width: usize, height: usize, slots: usize, groups: usize) -> bool {
    if groups != 3 || !last_column_folds(width) || width <= MMA_OUT_COLS {
        return false;
    }
    let columns = width.div_ceil(MMA_OUT_COLS);
    let strips = one_wave_strips(columns, height, slots);
    let (folded, one_wave) = folded_critical_steps(width, height, slots, groups);
    one_wave
        && folded as f64 <= EVEN_SPREAD_GAIN * strips_critical_steps(width, height, slots, groups, strips) as f64
        && folded <= even_critical_steps(width, height, slots, groups)
}

/// Output blocks of the tensor-core form in an image: columns of MMA_OUT_COLS x blocks of
/// MMA_BLOCK_ROWS rows.
pub fn mma_output_blocks(width: usize, height: usize) -> usize {
    width.div_ceil(MMA_OUT_COLS) * height.div_ceil(MMA_BLOCK_ROWS)
}

/// Blocks of the even spread on a device holding `slots` of them at once: one wave, none idle
/// (no more than the image's output blocks).
pub fn even_spread_blocks(width: usize, height: usize, slots: usize) -> usize {
    mma_output_blocks(width, height).min(slots.max(1)).max(1)
}

/// Steps of 32 rows the slowest block of the tensor-core form takes with G groups an output block
/// (each walk starts G - 1 steps before its first outputs), spread in `strips`: each wave's strip
/// one after the other.
pub fn strips_critical_steps(width: usize, height: usize, slots: usize, groups: usize, strips: usize) -> usize {
    let strips = strips.max(1);
    let waves = (width.div_ceil(MMA_OUT_COLS) * strips).div_ceil(slots.max(1));
    waves * (strip_blocks(height, strips) + groups - 1)
}

/// The same for the even spread (the kernel file's MMA_EVEN_SPREAD): each column of blocks is G -
/// 1 steps of a walk's start and a step an output block, a block takes an even share of those
/// steps, rounded up, and pays a start on top where its share begins inside a column.
pub fn even_critical_steps(width: usize, height: usize, slots: usize, groups: usize) -> usize {
    let steps = width.div_ceil(MMA_OUT_COLS) * (height.div_ceil(MMA_BLOCK_ROWS) + groups - 1);
    steps.div_ceil(even_spread_blocks(width, height, slots)) + groups - 1
}

/// Whether the tensor-core form spreads an image evenly by default, `slots` of its blocks at once
/// and G = `groups`: at G = 3, where its slowest block's steps come to at most EVEN_SPREAD_GAIN of
/// the strips' (the planner's one-wave strips), and on images beyond the L2 (`beyond`) only where
/// the strips take more than one wave; the planners take the folded spread first where it applies
/// (`folded_by_default`: 4800^2). What the step count leaves out, the measurements put in
/// (H100, CUDA, u8, us, strips -> even, the same rounds, reports/2026-11-26-h100/experiments
/// call-343; NVIDIA's OpenCL alike):
/// - A spread block's step costs more than a strip's: where strips fill one wave, the even spread
///   with the same slowest block's steps ran 5-10% slower (4736 x 4800 m = 63 21.99 -> 24.25 us,
///   call 349). Not from its second walk's start: copying that walk's first groups during the first
///   walk's last steps ran level (call 346). Its shares drift from column to column (1.2 steps at
///   4800^2), so neighbouring blocks read at different rows: 27.2 MB from DRAM for a 23.3 MB image,
///   against 24.2 MB for 22.7 in one wave of strips (Nsight Compute, call 347); shares aligned with
///   the strips' rows ran 1.03x the strips' time (call 350).
///   At G <= 2, whose steps are cheap, the even spread ran level or slower on every image (4800^2 m
///   = 5 19.31 -> 21.62, 3840 x 2160 7.79 -> 9.69, 5120 x 2880 level).
/// - Beyond the L2 the strips read the image a few rows at a time across its whole width, shared
///   halos and whole DRAM pages; even shares spread the blocks over as many row positions as there
///   are blocks: 7680 x 4320 m = 45 / 63 30.67 / 31.82 -> 40.73 / 41.06 and 8192^2 55.05 / 56.96 ->
///   76.71 / 77.08, though their strips fill one wave and the steps predict a gain at 8K.
/// - Where the strips take two waves (4800^2 and 4864 x 4800: 38 columns of blocks, 13 strips;
///   5760^2: 45 and 11) the one wave pays: m = 45 / 63 25.41 / 26.93 -> 23.69 / 24.59, 25.78 /
///   27.29 -> 23.87 / 24.62, 33.96 / 35.59 -> 31.76 / 32.72; within the L2 too (3840 x 2160 9.81 /
///   10.57 -> 8.90 / 9.94, 5120 x 2880 14.29 / 15.64 -> 13.53 / 14.55; 4096^2, no gain predicted,
///   15.14 / 16.62 against 15.06 / 16.37).
/// - Where a batch's calls are launched dependently (`dependent`, CUDA since session 45: a call
///   reads its first groups under the end of the call ahead), shallow strips gain more from it
///   than the even spread, whose blocks that cross a column start their second walk cold, in the
///   middle of the call: UHD (strips of 9 + 2 steps against 8 + 2) went over to the strips, m = 45
///   / 63 8.69 / 9.35 -> 8.15 / 9.01 us (even / strips 1.055-1.066 / 1.037-1.041, calls 369-370
///   on two cards), while from 12 steps a strip on the even spread stayed ahead: 3840 x 2400
///   (10 + 2) 0.975-0.992, 4480 x 2520, 5120 x 2160 and 3840 x 2880 (12 + 2) 0.958-0.998, 5120 x
///   2880 (15 + 2) 0.967-0.975, 4608 x 3456 and 5120 x 3200 0.965-0.992 (call 370,
///   reports/2026-11-26-h100/experiments/calls-369-370.tar.xz). So with dependent launches the
///   even spread also needs strips of DEPENDENT_EVEN_MIN_STEPS or more.
pub fn even_spread_by_default(
    width: usize,
    height: usize,
    slots: usize,
    groups: usize,
    beyond: bool,
    dependent: bool,
) -> bool {
    if groups != 3 {
        return false;
    }
    let columns = width.div_ceil(MMA_OUT_COLS);
    let strips = one_wave_strips(columns, height, slots);
    let waves = (columns * strips).div_ceil(slots.max(1));
    let even_steps = even_critical_steps(width, height, slots, groups);
    let strip_steps = strips_critical_steps(width, height, slots, groups, strips);
    (!beyond || waves > 1)
        && even_steps as f64 <= EVEN_SPREAD_GAIN * strip_steps as f64
        && (!dependent || strip_steps >= DEPENDENT_EVEN_MIN_STEPS)
}

/// The share of the strips' steps below which the even spread is the default.
pub const EVEN_SPREAD_GAIN: f64 = 0.95;

/// The fewest steps the slowest strip takes for the even spread to be the default where a batch's
/// calls are launched dependently (`even_spread_by_default`).
pub const DEPENDENT_EVEN_MIN_STEPS: usize = 12;

impl U8Form {
    /// Tunable `form`, if given: a bad input unless it names a form and the image is one the
    /// forms take (u8, width a multiple of 4, window up to FUSED_MAX_WINDOW).
    pub fn asked(
        tunables: &Params,
        dtype: DType,
        width: usize,
        height: usize,
        window: usize,
    ) -> Result<Option<U8Form>, Error> {
        let Some(name) = tunables.string_opt("form")? else { return Ok(None) };
        let form = match name {
            "words" => U8Form::Words,
            "ring" => U8Form::Ring,
            "mma" => U8Form::Mma,
            _ => {
                return Err(Error::input(format!(
                    "box-filter `fast` tunable `form` is ring, words or mma; got `{name}`"
                )))
            }
        };
        if dtype != DType::U8 || width % 4 != 0 || window > FUSED_MAX_WINDOW {
            return Err(Error::input(format!(
                "box-filter `fast` tunable `form` applies to u8 images of widths a multiple of 4 with windows up to \
                 {FUSED_MAX_WINDOW}, not to {dtype} {width} x {height}, m = {window}"
            )));
        }
        if form == U8Form::Mma && width % 16 != 0 {
            return Err(Error::input(format!(
                "box-filter `fast` tunable `form` = mma applies to widths a multiple of 16, not to {width} x {height}"
            )));
        }
        Ok(Some(form))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_beyond_three_quarters_of_the_l2_with_their_output_are_beyond_it() {
        let h100 = 50 << 20;
        assert!(!beyond_l2(h100, 4096 * 4096));
        assert!(!beyond_l2(h100, 7680 * 2160));
        assert!(beyond_l2(h100, 4800 * 4800));
        assert!(beyond_l2(h100, 7680 * 4320));
        assert!(!beyond_l2(h100, 3 * h100 / 8) && beyond_l2(h100, 3 * h100 / 8 + 1));
    }

    #[test]
    fn the_walk_is_unrolled_further_down_strips_of_eight_blocks_and_more() {
        // One-wave strips on an H100 (264 slots of blocks): 4096^2 in 8 strips of 16 blocks, 4096 x
        // 2160 of 9, 2048^2 in 16 of 4, 1920 x 1080 in 17 of 2.
        assert!(deep_walk(4096, 8) && deep_walk(2160, 8));
        assert!(!deep_walk(2048, 16) && !deep_walk(1080, 17));
        assert!(deep_walk(225, 1) && !deep_walk(224, 1) && !deep_walk(256, 2));
        assert!(!deep_walk(0, 0));
    }

    #[test]
    fn u8_widths_a_multiple_of_4_take_the_word_form_and_large_windows_two_passes() {
        let entry = |dtype, width| fused_launch(dtype, width, 100, 5).unwrap().entry;
        assert_eq!(entry(DType::U8, 772), "box_filter_fast_fused_u8x4");
        assert_eq!(entry(DType::U8, 774), "box_filter_fast_fused");
        assert_eq!(entry(DType::F32, 772), "box_filter_fast_fused");
        let l = fused_launch(DType::F32, 7680, 4320, 63).unwrap();
        assert_eq!((l.groups, l.strip_rows), ((40, 135), 32));
        assert_eq!(fused_launch(DType::U8, 7680, 4320, 65), None);
    }

    #[test]
    fn strips_with_a_two_pass_window_are_a_bad_input_naming_it() {
        let err = strips_without_fused(65);
        assert!(matches!(&err, Error::Input(m) if m.contains("`strips`") && m.contains("m = 65")), "{err}");
    }

    #[test]
    fn form_names_ring_or_words_for_u8_word_widths_only() {
        let asked = |form: &str, dtype, width, window| {
            U8Form::asked(&Params::new().with("form", form), dtype, width, 100, window)
        };
        assert_eq!(asked("ring", DType::U8, 1024, 63).unwrap(), Some(U8Form::Ring));
        assert_eq!(asked("words", DType::U8, 1024, 5).unwrap(), Some(U8Form::Words));
        assert_eq!(asked("mma", DType::U8, 1024, 63).unwrap(), Some(U8Form::Mma));
        assert_eq!(U8Form::asked(&Params::new(), DType::F32, 1023, 100, 65).unwrap(), None);
        for (form, dtype, width, window, named) in [
            ("bytes", DType::U8, 1024, 5, "bytes"),
            ("ring", DType::F32, 1024, 5, "f32"),
            ("ring", DType::U8, 1022, 5, "1022"),
            ("words", DType::U8, 1024, 65, "m = 65"),
            ("mma", DType::U8, 1028, 5, "1028"),
        ] {
            let err = asked(form, dtype, width, window).unwrap_err();
            assert!(matches!(&err, Error::Input(m) if m.contains("`form`") && m.contains(named)), "{err}");
        }
    }

    #[test]
    fn the_tensor_core_form_takes_u8_widths_of_16_up_to_m_49_and_to_63_on_strips_of_3_blocks_and_its_shape_covers_the_window(
    ) {
        // An H100's 132 SMs x 4 groups: 8K in strips of 540 rows, 3840 x 2160 in 128, 4096 x 352 in 32.
        let slots = 528;
        let rows = |width, height| mma_strip_rows(width, height, slots);
        assert_eq!((rows(7680, 4320), rows(3840, 2160), rows(4096, 352)), (540, 128, 32));
        assert!(mma_by_default(DType::U8, 4096, 352, 49, slots));
        assert!(!mma_by_default(DType::U8, 4096, 352, 51, slots));
        assert!(mma_by_default(DType::U8, 3840, 2160, 63, slots));
        assert!(!mma_by_default(DType::U8, 4096, 4096, 65, slots));
        assert!(!mma_by_default(DType::U8, 4100, 4096, 5, slots));
        assert!(!mma_by_default(DType::F32, 4096, 4096, 5, slots));
        assert_eq!(
            [1, 3, 17, 19, 33, 35, 49, 51, 63].map(mma_shape),
            [(1, 1), (2, 1), (2, 1), (2, 2), (2, 2), (3, 2), (3, 2), (3, 3), (3, 3)]
        );
        for window in (1..=63).step_by(2) {
            let (g, kh) = mma_shape(window);
            let r = window / 2;
            // An output block's window rows fit its groups; a slab's window columns its steps.
            assert!(32 + 2 * r <= 32 * g && 16 + r + r.div_ceil(8) * 8 <= 32 * kh, "m = {window}");
            assert!(32 + 2 * r > 32 * (g - 1), "m = {window}: fewer groups would do");
        }
    }

    #[test]
    fn the_tails_spread_covers_every_output_block_once() {
        // UHD at G = 3 on 264 slots: 30 columns of 68 blocks, 8 strips of 8 a column (240 blocks),
        // tails of 4; 24 spare blocks walk columns 0 .. 24's tails and one block each of the other
        // six columns' (24 blocks): 8 + 2 steps either way, against the strips' 9 + 2.
        let uhd = TailSpread::new(30, 68, 264).unwrap();
        assert_eq!(uhd, TailSpread { strips: 8, strip_blocks: 8, tail_blocks: 4, spare: 24 });
        assert_eq!(uhd.second_walks(30, 0), vec![(24, 0, 1)]);
        assert_eq!(uhd.second_walks(30, 23), vec![(29, 3, 4)]);
        assert_eq!(uhd.critical_steps(30, 3), 10);
        // By default where a batch's calls are launched dependently and the image lies in the L2:
        // UHD, 3840 x 2400 and 5120 x 2160 at G = 3 (measured); not DCI 4K (8 spare blocks for 32
        // tails), 4096^2 or 5K (no block to spare), G <= 2, plain launches or beyond the L2.
        for (width, height) in [(3840, 2160), (3840, 2400), (5120, 2160)] {
            assert!(tails_by_default(width, height, 264, 3), "{width} x {height}");
            assert_eq!(MmaSpread::by_default(width, height, 264, 3, Some(false), true), MmaSpread::Tails);
            assert_ne!(MmaSpread::by_default(width, height, 264, 3, Some(false), false), MmaSpread::Tails);
            assert_ne!(MmaSpread::by_default(width, height, 264, 3, Some(true), true), MmaSpread::Tails);
        }
        for (width, height) in [(4096, 2160), (4096, 4096), (5120, 2880)] {
            assert!(!tails_by_default(width, height, 264, 3), "{width} x {height}");
        }
        assert!(!tails_by_default(3840, 2160, 396, 2));
        // No block to spare: strips as deep as the column needs. Too few slots: none.
        assert_eq!(
            TailSpread::new(33, 68, 264).unwrap(),
            TailSpread { strips: 8, strip_blocks: 9, tail_blocks: 0, spare: 0 }
        );
        assert_eq!(TailSpread::new(300, 68, 264), None);
        for (columns, per_column, slots) in
            [(30, 68, 264), (32, 68, 264), (40, 68, 264), (30, 75, 264), (9, 35, 264), (2, 3, 7), (1, 1, 2)]
        {
            let spread = TailSpread::new(columns, per_column, slots).unwrap();
            let mut covered = vec![0; columns * per_column];
            for block in 0..columns * spread.strips {
                let (column, strip) = (block % columns, block / columns);
                for b in strip * spread.strip_blocks..((strip + 1) * spread.strip_blocks).min(per_column) {
                    covered[column * per_column + b] += 1;
                }
            }
            let band = spread.strips * spread.strip_blocks;
            for spare in 0..spread.spare {
                let own = (spare < columns).then_some((spare, 0, spread.tail_blocks));
                for (column, first, last) in own.into_iter().chain(spread.second_walks(columns, spare)) {
                    for b in first..last {
                        covered[column * per_column + band + b] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&n| n == 1), "{columns} x {per_column} on {slots}: {spread:?}");
            assert!(columns * spread.strips + spread.spare <= slots);
        }
    }

    #[test]
    fn the_even_spread_fills_one_wave_of_the_slots_and_names_a_bad_value() {
        // 4800^2: 38 columns x 150 blocks, 264 slots of an H100 at G = 3.
        assert_eq!(mma_output_blocks(4800, 4800), 5700);
        assert_eq!(even_spread_blocks(4800, 4800, 264), 264);
        // Small images: a block an output block.
        assert_eq!(even_spread_blocks(256, 7, 264), 2);
        let asked = |value: &str| MmaSpread::asked(&Params::new().with("mma_spread", value));
        assert_eq!(asked("even").unwrap(), Some(MmaSpread::Even));
        assert_eq!(asked("strips").unwrap(), Some(MmaSpread::Strips));
        assert_eq!(MmaSpread::asked(&Params::new()).unwrap(), None);
        let boundary = |value: &str| MmaBoundary::asked(&Params::new().with("mma_boundary", value));
        assert_eq!(MmaBoundary::asked(&Params::new()).unwrap(), MmaBoundary::Own);
        assert_eq!(boundary("own").unwrap(), MmaBoundary::Own);
        assert_eq!(boundary("shared").unwrap(), MmaBoundary::Shared);
        assert!(
            matches!(boundary("both"), Err(Error::Input(m)) if m.contains("`mma_boundary`") && m.contains("`both`"))
        );
        // H100 at G = 3 (264 slots): 4800^2 two waves of 13 strips, 2 x (12 + 2) steps, against
        // 38 x 152 steps in 264 shares of 22 and a start; 5760^2 2 x (17 + 2) against 32 + 2; UHD
        // one wave of 9 + 2 against 8 + 2. At G <= 2 (396 slots) 4800^2 is one wave of 15 + 1
        // against 15 + 1.
        assert_eq!(strips_critical_steps(4800, 4800, 264, 3, 13), 28);
        assert_eq!(even_critical_steps(4800, 4800, 264, 3), 24);
        // The measured defaults (even_spread_by_default says why): G = 3 where the strips take two
        // waves or the image lies within the L2 and the steps predict a gain; not 8K or 8192^2
        // (beyond the L2, one wave), 4096^2 (no gain) or any G <= 2.
        for dependent in [false, true] {
            for (width, height, beyond) in [(4800, 4800, true), (4864, 4800, true), (5760, 5760, true)] {
                assert!(even_spread_by_default(width, height, 264, 3, beyond, dependent), "{width} x {height}");
            }
            assert!(even_spread_by_default(5120, 2880, 264, 3, false, dependent));
            assert!(!even_spread_by_default(7680, 4320, 264, 3, true, dependent));
            assert!(!even_spread_by_default(8192, 8192, 264, 3, true, dependent));
            assert!(!even_spread_by_default(4096, 4096, 264, 3, false, dependent));
            assert!(!even_spread_by_default(4800, 4800, 396, 2, true, dependent));
            assert!(!even_spread_by_default(3840, 2160, 396, 2, false, dependent));
        }
        // UHD: strips of 9 + 2 steps, the even spread's 8 + 2; launched dependently, the strips
        // (under DEPENDENT_EVEN_MIN_STEPS); 3840 x 2400's strips of 10 + 2 keep the even spread.
        assert_eq!(strips_critical_steps(3840, 2160, 264, 3, 8), 11);
        assert!(even_spread_by_default(3840, 2160, 264, 3, false, false));
        assert!(!even_spread_by_default(3840, 2160, 264, 3, false, true));
        assert_eq!(strips_critical_steps(3840, 2400, 264, 3, 8), DEPENDENT_EVEN_MIN_STEPS);
        assert!(even_spread_by_default(3840, 2400, 264, 3, false, true));
        assert_eq!(asked("folded").unwrap(), Some(MmaSpread::Folded));
        assert_eq!(asked("tails").unwrap(), Some(MmaSpread::Tails));
        let err = asked("rows").unwrap_err();
        assert!(matches!(&err, Error::Input(m) if m.contains("`mma_spread`") && m.contains("rows")), "{err}");
    }

    #[test]
    fn the_folded_column_lets_one_wave_of_strips_fit() {
        // 4800^2: 37 full columns and one of 64; 7 strips of 22 blocks, the folded column's 75
        // upper blocks in 4 of them: 263 blocks in 264 slots.
        assert!(last_column_folds(4800) && last_column_folds(64) && !last_column_folds(4864));
        assert!(!last_column_folds(4736 + 80));
        assert_eq!(folded_column_blocks(4800, 7), 4);
        assert_eq!(folded_strips(38, 4800, 264, None), (7, 5));
        // Strips asked: the folded column in the slots left, at least what it needs.
        assert_eq!(folded_strips(38, 4800, 264, Some(6)), (6, 6));
        assert_eq!(folded_strips(38, 4800, 264, Some(13)), (13, 7));
        // Fewer slots than columns: no strip count fits, so the strips' own count.
        let strips = one_wave_strips(38, 4800, 20);
        assert_eq!(folded_strips(38, 4800, 20, None), (strips, folded_column_blocks(4800, strips)));
        // A folded column of fewer rows than a block: one strip.
        assert_eq!(folded_strips(9, 7, 264, None).1, 1);
        // By default at G = 3 where it saves steps: 4800^2 (24 against the strips' 2 x 14 and the
        // even spread's 24), not 5184 x 3456 or 2880^2 (the strips' one wave, as many steps), nor
        // whole columns, G <= 2 or an image of one column.
        assert_eq!(folded_critical_steps(4800, 4800, 264, 3), (24, true));
        assert!(folded_by_default(4800, 4800, 264, 3));
        assert_eq!(folded_critical_steps(5184, 3456, 264, 3), (20, true));
        assert!(!folded_by_default(5184, 3456, 264, 3));
        assert!(!folded_by_default(2880, 2880, 264, 3));
        assert!(!folded_by_default(4864, 4800, 264, 3));
        assert!(!folded_by_default(4800, 4800, 396, 2));
        assert!(!folded_by_default(64, 4800, 264, 3));
        // Both planners' default: folded first, then (launched dependently, in the L2) the tails,
        // then even where the L2's place is known. Launched plainly (NVIDIA's OpenCL, CUDA with
        // `pdl: off`) and dependently (CUDA on sm_90).
        let plain = |w, h, slots, g, beyond| MmaSpread::by_default(w, h, slots, g, beyond, false);
        let dependent = |w, h, slots, g, beyond| MmaSpread::by_default(w, h, slots, g, beyond, true);
        for by_default in [plain, dependent] {
            assert_eq!(by_default(4800, 4800, 264, 3, Some(true)), MmaSpread::Folded);
            assert_eq!(by_default(4800, 4800, 264, 3, None), MmaSpread::Folded);
            assert_eq!(by_default(4864, 4800, 264, 3, Some(true)), MmaSpread::Even);
            assert_eq!(by_default(4864, 4800, 264, 3, None), MmaSpread::Strips);
            assert_eq!(by_default(5120, 2880, 264, 3, Some(false)), MmaSpread::Even);
            assert_eq!(by_default(7680, 4320, 264, 3, Some(true)), MmaSpread::Strips);
            assert_eq!(by_default(4800, 4800, 396, 2, Some(true)), MmaSpread::Strips);
        }
        assert_eq!(plain(3840, 2160, 264, 3, Some(false)), MmaSpread::Even);
        assert_eq!(dependent(3840, 2160, 264, 3, Some(false)), MmaSpread::Tails);
        assert_eq!(dependent(3840, 2160, 264, 3, None), MmaSpread::Strips);
    }

    #[test]
    fn strips_fill_the_slots_in_the_fewest_waves() {
        assert_eq!(one_wave_strips(40, 4320, 528), 13);
        assert_eq!(one_wave_strips(22, 4096, 528), 24);
        // Two groups an SM: one wave of 6 strips (91% of the slots), not two of 13.
        assert_eq!(one_wave_strips(40, 4320, 264), 6);
        // Wider than the slots: 3 waves of 5 strips fill 95% of them, 1 of 1 57%.
        assert_eq!(one_wave_strips(300, 4320, 528), 5);
        // Small images: no strip shorter than a batch.
        assert_eq!(one_wave_strips(2, 64, 528), 2);
    }
}
