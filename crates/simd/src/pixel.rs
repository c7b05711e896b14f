//! The two image element types, u8 and f32, and what the image kernels need of each: the type
//! box-filter window sums accumulate in (exact u32 for u8, f32 for f32; see `sum.rs`), and how
//! a convolution result or a window mean becomes a pixel.

use crate::divide::Divider;
use crate::kernel::Element;
use crate::level::Level;
use crate::sum::Sum;
use crate::vector::{load_f32s, round_to_u8, store_f32s, widen_u8_to_f32, widen_u8_to_u32};
use dspbench_core::{DType, Error, Pixels, MAX_ELEMENTS};

pub(crate) trait Pixel: Element + Default {
    const DTYPE: DType;

    /// Accumulator of box-filter window sums.
    type Sum: Sum;

    /// Largest box window whose sum `Sum` holds; wider windows are refused at plan time.
    const MAX_WINDOW: usize;

    /// The pixels of `pixels`, if they are of this type.
    fn slice(pixels: &Pixels) -> Option<&[Self]>;

    /// `dst[i] = src[i]` as f32 (2-D convolution works in f32).
    fn to_f32(src: &[Self], dst: &mut [f32]);

    /// `dst[i] = src[i]` as a window sum.
    fn to_sum(src: &[Self], dst: &mut [Self::Sum]);

    /// `src` as window sums: `src` itself where the types agree, else widened into `buffer`.
    fn as_sums<'a>(src: &'a [Self], buffer: &'a mut [Self::Sum]) -> &'a [Self::Sum];

    /// Convolution results as pixels (`dst` as long as `values`, which is overwritten).
    fn from_f32<L: Level>(simd: L, values: &mut [f32], dst: &mut [Self]);

    /// What turns a window sum into its mean, fixed at plan time.
    type Mean: Copy + Send + Sync;

    /// The mean of windows of `area` pixels.
    fn mean_of(area: u64) -> Self::Mean;

    /// Window means of `sums` as pixels (`dst` as long as `sums`, which may be overwritten).
    fn mean<L: Level>(simd: L, sums: &mut [Self::Sum], mean: Self::Mean, dst: &mut [Self]);
}

/// The u8 mean of a window of `area` pixels: floor(sum / area + 1/2) = (sum + area / 2) / area
/// for odd areas, in exact integer arithmetic (the reference requires every u8 mean exact).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RoundedMean {
    area: u32,
    divider: Divider,
}

impl Pixel for u8 {
    const DTYPE: DType = DType::U8;
    type Sum = u32;

    // Largest odd m with 255.5 m^2 <= u32::MAX: the window sum (255 m^2) and the rounding
    // (sum + m^2 / 2) both stay in u32. The same bound as `dspbench-scalar`.
    const MAX_WINDOW: usize = dspbench_host::MAX_U8_WINDOW;

    fn slice(pixels: &Pixels) -> Option<&[u8]> {
        match pixels {
            Pixels::U8(v) => Some(v),
            Pixels::F32(_) => None,
        }
    }

    #[inline(always)]
    fn to_f32(src: &[u8], dst: &mut [f32]) {
        widen_u8_to_f32(src, dst);
    }

    #[inline(always)]
    fn to_sum(src: &[u8], dst: &mut [u32]) {
        widen_u8_to_u32(src, dst);
    }

    #[inline(always)]
    fn as_sums<'a>(src: &'a [u8], buffer: &'a mut [u32]) -> &'a [u32] {
        let widened = &mut buffer[..src.len()];
        widen_u8_to_u32(src, widened);
        widened
    }

    #[inline(always)]
    fn from_f32<L: Level>(simd: L, values: &mut [f32], dst: &mut [u8]) {
        round_to_u8(simd, values, dst);
    }

    type Mean = RoundedMean;

    fn mean_of(area: u64) -> RoundedMean {
        // MAX_WINDOW keeps the area within u32.
        let area = area as u32;
        RoundedMean { area, divider: Divider::new(area) }
    }

    #[inline(always)]
    fn mean<L: Level>(simd: L, sums: &mut [u32], mean: RoundedMean, dst: &mut [u8]) {
        let half = mean.area / 2;
        let halves = simd.splat_u32s(half);
        let (vectors, tail) = L::as_mut_simd_u32s(sums);
        for v in vectors {
            *v = mean.divider.divide_u32s(simd, simd.add_u32s(*v, halves));
        }
        for v in tail {
            *v = (*v + half) / mean.area;
        }
        // Means of u8 pixels, at most 255: the cast is exact.
        for (d, &q) in dst.iter_mut().zip(sums.iter()) {
            *d = q as u8;
        }
    }
}

impl Pixel for f32 {
    const DTYPE: DType = DType::F32;
    type Sum = f32;

    // Any window a problem can name fits an f32 sum; this only keeps m^2 far from overflow.
    const MAX_WINDOW: usize = MAX_ELEMENTS;

    fn slice(pixels: &Pixels) -> Option<&[f32]> {
        match pixels {
            Pixels::F32(v) => Some(v),
            Pixels::U8(_) => None,
        }
    }

    #[inline(always)]
    fn to_f32(src: &[f32], dst: &mut [f32]) {
        dst.copy_from_slice(&src[..dst.len()]);
    }

    #[inline(always)]
    fn to_sum(src: &[f32], dst: &mut [f32]) {
        dst.copy_from_slice(&src[..dst.len()]);
    }

    #[inline(always)]
    fn as_sums<'a>(src: &'a [f32], _: &'a mut [f32]) -> &'a [f32] {
        src
    }

    #[inline(always)]
    fn from_f32<L: Level>(_: L, values: &mut [f32], dst: &mut [f32]) {
        dst.copy_from_slice(values);
    }

    /// 1 / area: the mean multiplies rather than divides (the scalar backend divides), since a
    /// vector division costs as much as the rest of a running-sum pixel and the product is within
    /// an ulp of the quotient, far inside the workload's tolerance.
    type Mean = f32;

    fn mean_of(area: u64) -> f32 {
        (1.0 / area as f64) as f32
    }

    #[inline(always)]
    fn mean<L: Level>(simd: L, sums: &mut [f32], scale: f32, dst: &mut [f32]) {
        let (lanes, factor) = (L::F32_LANES, simd.splat_f32s(scale));
        let done = dst.len() / lanes * lanes;
        let mut pixels = dst.chunks_exact_mut(lanes);
        for (d, s) in (&mut pixels).zip(sums.chunks_exact(lanes)) {
            store_f32s::<L>(d, simd.mul_f32s(load_f32s::<L>(s), factor));
        }
        for (d, &s) in pixels.into_remainder().iter_mut().zip(&sums[done..]) {
            *d = s * scale;
        }
    }
}

/// Refuses a box window wider than `P::MAX_WINDOW`, for the variant named `variant`.
pub(crate) fn check_window<P: Pixel>(variant: &str, window: usize) -> Result<(), Error> {
    if window > P::MAX_WINDOW {
        return Err(Error::unsupported(format!(
            "box-filter `{variant}` sums {} windows of at most {m}x{m} pixels exactly, got window {window}",
            P::DTYPE,
            m = P::MAX_WINDOW
        )));
    }
    Ok(())
}
