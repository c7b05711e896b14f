//! Box-filter window sums: the type they accumulate in (u32 for u8 pixels, exact; f32 for f32)
//! and its vector arithmetic, so one running-sum kernel serves both.

use crate::level::Level;
use crate::vector::{load_f32s, load_u32s, store_f32s, store_u32s, PrefixSum};
use pulp::bytemuck::cast;
use std::ops::{Add, Sub};

/// A window-sum type and its vector arithmetic (u32 lanes wrap, which is harmless: every running
/// sum of u8 pixels ends at a true window sum, which fits).
pub(crate) trait Sum: Copy + Default + Send + Sync + Add<Output = Self> + Sub<Output = Self> + 'static {
    type Lanes<L: Level>: Copy;

    /// `self` added `count` times (a clamped window reads an edge pixel repeatedly).
    fn times(self, count: usize) -> Self;

    fn splat<L: Level>(simd: L, value: Self) -> Self::Lanes<L>;
    fn load<L: Level>(src: &[Self]) -> Self::Lanes<L>;
    fn store<L: Level>(dst: &mut [Self], value: Self::Lanes<L>);
    fn add_lanes<L: Level>(simd: L, a: Self::Lanes<L>, b: Self::Lanes<L>) -> Self::Lanes<L>;
    fn sub_lanes<L: Level>(simd: L, a: Self::Lanes<L>, b: Self::Lanes<L>) -> Self::Lanes<L>;
    /// `a * count`, lane by lane.
    fn times_lanes<L: Level>(simd: L, a: Self::Lanes<L>, count: usize) -> Self::Lanes<L>;
    fn prefix_sum<L: Level>(simd: L, scan: &PrefixSum<L>, v: Self::Lanes<L>) -> Self::Lanes<L>;
    fn broadcast_last<L: Level>(simd: L, v: Self::Lanes<L>) -> Self::Lanes<L>;
    /// `v` with lane 0 replaced by `first`.
    fn with_first<L: Level>(simd: L, v: Self::Lanes<L>, first: Self) -> Self::Lanes<L>;
}

impl Sum for u32 {
    type Lanes<L: Level> = L::u32s;

    fn times(self, count: usize) -> u32 {
        // Box windows are at most u8::MAX_WINDOW, so the count and the product fit.
        self * count as u32
    }

    #[inline(always)]
    fn splat<L: Level>(simd: L, value: u32) -> L::u32s {
        simd.splat_u32s(value)
    }
    #[inline(always)]
    fn load<L: Level>(src: &[u32]) -> L::u32s {
        load_u32s::<L>(src)
    }
    #[inline(always)]
    fn store<L: Level>(dst: &mut [u32], value: L::u32s) {
        store_u32s::<L>(dst, value);
    }
    #[inline(always)]
    fn add_lanes<L: Level>(simd: L, a: L::u32s, b: L::u32s) -> L::u32s {
        simd.add_u32s(a, b)
    }
    #[inline(always)]
    fn sub_lanes<L: Level>(simd: L, a: L::u32s, b: L::u32s) -> L::u32s {
        simd.sub_u32s(a, b)
    }
    #[inline(always)]
    fn times_lanes<L: Level>(simd: L, a: L::u32s, count: usize) -> L::u32s {
        simd.mul_u32s(a, simd.splat_u32s(count as u32))
    }
    #[inline(always)]
    fn prefix_sum<L: Level>(simd: L, scan: &PrefixSum<L>, v: L::u32s) -> L::u32s {
        scan.u32s(simd, v)
    }
    #[inline(always)]
    fn broadcast_last<L: Level>(simd: L, v: L::u32s) -> L::u32s {
        // A permute moves bits, whatever they mean.
        cast(simd.broadcast_last_f32s(cast(v)))
    }
    #[inline(always)]
    fn with_first<L: Level>(simd: L, v: L::u32s, first: u32) -> L::u32s {
        simd.select_u32s(simd.mask_between_m32s(0, 1).mask(), simd.splat_u32s(first), v)
    }
}

impl Sum for f32 {
    type Lanes<L: Level> = L::f32s;

    fn times(self, count: usize) -> f32 {
        self * count as f32
    }

    #[inline(always)]
    fn splat<L: Level>(simd: L, value: f32) -> L::f32s {
        simd.splat_f32s(value)
    }
    #[inline(always)]
    fn load<L: Level>(src: &[f32]) -> L::f32s {
        load_f32s::<L>(src)
    }
    #[inline(always)]
    fn store<L: Level>(dst: &mut [f32], value: L::f32s) {
        store_f32s::<L>(dst, value);
    }
    #[inline(always)]
    fn add_lanes<L: Level>(simd: L, a: L::f32s, b: L::f32s) -> L::f32s {
        simd.add_f32s(a, b)
    }
    #[inline(always)]
    fn sub_lanes<L: Level>(simd: L, a: L::f32s, b: L::f32s) -> L::f32s {
        simd.sub_f32s(a, b)
    }
    #[inline(always)]
    fn times_lanes<L: Level>(simd: L, a: L::f32s, count: usize) -> L::f32s {
        simd.mul_f32s(a, simd.splat_f32s(count as f32))
    }
    #[inline(always)]
    fn prefix_sum<L: Level>(simd: L, scan: &PrefixSum<L>, v: L::f32s) -> L::f32s {
        scan.f32s(simd, v)
    }
    #[inline(always)]
    fn broadcast_last<L: Level>(simd: L, v: L::f32s) -> L::f32s {
        simd.broadcast_last_f32s(v)
    }
    #[inline(always)]
    fn with_first<L: Level>(simd: L, v: L::f32s, first: f32) -> L::f32s {
        simd.select_f32s(simd.mask_between_m32s(0, 1).mask(), simd.splat_f32s(first), v)
    }
}
