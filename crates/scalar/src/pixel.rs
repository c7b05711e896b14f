//! The two image element types, u8 and f32, and what the image kernels need to know about
//! each: how window sums accumulate, how a result becomes a pixel, and which windows fit.

use dspbench_core::{DType, Error, Pixels, MAX_ELEMENTS};
use dspbench_host::round::{mean_to_u8, round_to_u8};
use dspbench_host::Element;
use std::ops::{Add, Sub};

pub(crate) trait Pixel: Element {
    /// Accumulator of box-filter window sums: u32 for u8 (exact), f32 for f32 (as the paper).
    type Sum: Copy + Default + Send + Add<Output = Self::Sum> + Sub<Output = Self::Sum> + 'static;

    const DTYPE: DType;

    /// Largest box window whose sum `Sum` holds; wider windows are refused at plan time.
    const MAX_WINDOW: usize;

    /// The pixels of `pixels`, if they are of this type.
    fn slice(pixels: &Pixels) -> Option<&[Self]>;

    fn widen(self) -> Self::Sum;

    /// `value` added `count` times (a clamped window reads an edge pixel repeatedly).
    fn repeat(value: Self::Sum, count: usize) -> Self::Sum;

    /// The mean of a window of `area` pixels summing to `sum`.
    fn mean(sum: Self::Sum, area: u64) -> Self;

    /// A convolution result as a pixel.
    fn from_f32(value: f32) -> Self;

    fn to_f32(self) -> f32;
}

impl Pixel for u8 {
    type Sum = u32;
    const DTYPE: DType = DType::U8;

    // Largest odd m with 255.5 m^2 <= u32::MAX: the window sum (255 m^2) and the rounding
    // in `mean_to_u8` (sum + m^2 / 2) both stay in u32.
    const MAX_WINDOW: usize = dspbench_host::MAX_U8_WINDOW;

    fn slice(pixels: &Pixels) -> Option<&[u8]> {
        match pixels {
            Pixels::U8(v) => Some(v),
            Pixels::F32(_) => None,
        }
    }
    #[inline]
    fn widen(self) -> u32 {
        u32::from(self)
    }
    #[inline]
    fn repeat(value: u32, count: usize) -> u32 {
        // MAX_WINDOW keeps the count and the product within u32.
        value * count as u32
    }
    #[inline]
    fn mean(sum: u32, area: u64) -> u8 {
        // MAX_WINDOW keeps the area within u32.
        mean_to_u8(sum, area as u32)
    }
    #[inline]
    fn from_f32(value: f32) -> u8 {
        round_to_u8(value)
    }
    #[inline]
    fn to_f32(self) -> f32 {
        f32::from(self)
    }
}

impl Pixel for f32 {
    type Sum = f32;
    const DTYPE: DType = DType::F32;

    // Any window a problem can name fits an f32 sum; this only keeps m^2 far from overflow.
    const MAX_WINDOW: usize = MAX_ELEMENTS;

    fn slice(pixels: &Pixels) -> Option<&[f32]> {
        match pixels {
            Pixels::F32(v) => Some(v),
            Pixels::U8(_) => None,
        }
    }
    #[inline]
    fn widen(self) -> f32 {
        self
    }
    #[inline]
    fn repeat(value: f32, count: usize) -> f32 {
        value * count as f32
    }
    /// Divides rather than multiplying by a precomputed 1/m^2: a division is correctly rounded,
    /// so the f32 sum is the only source of error, and it costs little beside the sum.
    #[inline]
    fn mean(sum: f32, area: u64) -> f32 {
        sum / area as f32
    }
    #[inline]
    fn from_f32(value: f32) -> f32 {
        value
    }
    #[inline]
    fn to_f32(self) -> f32 {
        self
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
