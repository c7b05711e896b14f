//! Vector helpers every kernel shares, generic over the pulp level.
//!
//! Loads and stores take a slice that starts where the vector does and is at least one vector
//! long, and are unaligned: rows and signals start anywhere. Everything here is
//! `#[inline(always)]`, so it is compiled inside the caller's dispatched (target-feature) code.
//!
//! pulp has no conversions between element widths (u8 to u32 or f32 and back). Those are plain
//! loops over a row here, inside the dispatched code, where LLVM turns them into the level's own
//! widening and narrowing instructions (`vpmovzxbd`, `vpmovdb`, `packus`, `uxtl`); the arithmetic
//! around them is explicit pulp.

use crate::level::Level;
use dspbench_core::Complex32;
use pulp::bytemuck::cast;
use pulp::Simd;

/// f32 lanes of the widest level (AVX-512). Row buffers are sized in whole vectors of it, so
/// every level's vectors tile them without a remainder.
pub(crate) const MAX_F32_LANES: usize = 16;

#[inline(always)]
pub(crate) fn load_f32s<S: Simd>(src: &[f32]) -> S::f32s {
    S::as_simd_f32s(&src[..S::F32_LANES]).0[0]
}

#[inline(always)]
pub(crate) fn store_f32s<S: Simd>(dst: &mut [f32], value: S::f32s) {
    S::as_mut_simd_f32s(&mut dst[..S::F32_LANES]).0[0] = value;
}

#[inline(always)]
pub(crate) fn load_u32s<S: Simd>(src: &[u32]) -> S::u32s {
    S::as_simd_u32s(&src[..S::U32_LANES]).0[0]
}

#[inline(always)]
pub(crate) fn store_u32s<S: Simd>(dst: &mut [u32], value: S::u32s) {
    S::as_mut_simd_u32s(&mut dst[..S::U32_LANES]).0[0] = value;
}

/// `z * -i`: swap the parts, then negate the new imaginary one.
#[inline(always)]
pub(crate) fn mul_neg_i<S: Simd>(simd: S, z: S::c32s) -> S::c32s {
    simd.conj_c32s(simd.swap_re_im_c32s(z))
}

/// `z * c` for a real `c`: one multiply of the parts as f32 lanes where a vector of complex
/// lanes is one of f32 lanes, a complex multiply on pulp's one-lane `scalar` level, where it is not.
#[inline(always)]
pub(crate) fn scale_c32s<S: Simd>(simd: S, z: S::c32s, c: f32) -> S::c32s {
    if size_of::<S::c32s>() == size_of::<S::f32s>() {
        cast(simd.mul_f32s(cast(z), simd.splat_f32s(c)))
    } else {
        simd.mul_c32s(z, simd.splat_c32s(Complex32::new(c, 0.0)))
    }
}

/// Inclusive prefix sums of the lanes of a vector (lane i becomes v[0] + ... + v[i]), in
/// log2(lanes) steps of shift and add. Made once per row, with the masks the shifts need.
pub(crate) struct PrefixSum<L: Level> {
    /// For the shift by 2^i: all bits set in lanes 2^i and up, none below.
    keep: [L::u32s; 4],
}

impl<L: Level> PrefixSum<L> {
    #[inline(always)]
    pub(crate) fn new(simd: L) -> Self {
        let (ones, zero) = (simd.splat_u32s(u32::MAX), simd.splat_u32s(0));
        let keep = |i: u32| simd.select_u32s(simd.mask_between_m32s(1 << i, L::U32_LANES as u32).mask(), ones, zero);
        PrefixSum { keep: [keep(0), keep(1), keep(2), keep(3)] }
    }

    /// The shifts by 1, 2, 4, .. below the lane count, with their masks.
    #[inline(always)]
    fn steps(&self) -> impl Iterator<Item = (usize, L::u32s)> + '_ {
        self.keep.iter().enumerate().map(|(i, &keep)| (1 << i, keep)).take_while(|&(k, _)| k < L::U32_LANES)
    }

    #[inline(always)]
    pub(crate) fn f32s(&self, simd: L, mut v: L::f32s) -> L::f32s {
        for (k, keep) in self.steps() {
            v = simd.add_f32s(v, cast(simd.shift_up_u32s(cast(v), k, keep)));
        }
        v
    }

    /// Wrapping, like every u32 running sum here.
    #[inline(always)]
    pub(crate) fn u32s(&self, simd: L, mut v: L::u32s) -> L::u32s {
        for (k, keep) in self.steps() {
            v = simd.add_u32s(v, simd.shift_up_u32s(v, k, keep));
        }
        v
    }
}

/// `dst[i] = src[i]` as f32, for the whole of `dst` (`src` at least as long).
#[inline(always)]
pub(crate) fn widen_u8_to_f32(src: &[u8], dst: &mut [f32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = f32::from(s);
    }
}

/// `dst[i] = src[i]` as u32.
#[inline(always)]
pub(crate) fn widen_u8_to_u32(src: &[u8], dst: &mut [u32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = u32::from(s);
    }
}

/// 2^23: adding it to a float in [0, 2^22] rounds the float to an integer (to even on a tie),
/// since floats from 2^23 on are spaced 1 apart, and leaves that integer in the low mantissa bits.
const ROUNDING: f32 = 8_388_608.0;

/// Every value of `values` (any length) as the u8 pixel the workload defines, floor(v + 0.5)
/// saturated to 0..=255, written to `dst` (as long as `values`). `values` is overwritten.
///
/// pulp has no floor, so the rounding is built from what every level has: clamp to [0, 255],
/// round to nearest-even with the 2^23 trick (exact in that range), and where that rounded a tie
/// down (v - t = 0.5) add the missing one. No `v + 0.5` is ever formed: in f32 the largest float
/// below 0.5 plus 0.5 rounds up to 1. The result is left as `t + 2^23`, whose low byte is t, for
/// a narrowing loop that LLVM vectorises.
#[inline(always)]
pub(crate) fn round_to_u8<S: Simd>(simd: S, values: &mut [f32], dst: &mut [u8]) {
    let (low, high) = (simd.splat_f32s(0.0), simd.splat_f32s(255.0));
    let (rounding, half, one) = (simd.splat_f32s(ROUNDING), simd.splat_f32s(0.5), simd.splat_f32s(1.0));
    let (vectors, tail) = S::as_mut_simd_f32s(values);
    for v in vectors {
        let clamped = simd.min_f32s(simd.max_f32s(*v, low), high);
        let biased = simd.add_f32s(clamped, rounding);
        let tie_down = simd.greater_than_or_equal_f32s(simd.sub_f32s(clamped, simd.sub_f32s(biased, rounding)), half);
        *v = simd.add_f32s(biased, simd.select_f32s(tie_down, one, low));
    }
    for v in tail {
        let clamped = v.clamp(0.0, 255.0);
        let biased = clamped + ROUNDING;
        *v = if clamped - (biased - ROUNDING) >= 0.5 { biased + 1.0 } else { biased };
    }
    for (d, &v) in dst.iter_mut().zip(values.iter()) {
        *d = v.to_bits() as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Isa;
    use crate::level::WithLevel;

    /// Runs a check at every level this CPU has.
    fn at_every_level(check: impl Fn(Isa) + Copy) {
        for isa in Isa::available() {
            check(isa);
        }
    }

    struct Scan<'a>(&'a [u32], &'a mut [u32], &'a mut [u32]);
    impl WithLevel for Scan<'_> {
        type Output = ();
        #[inline(always)]
        fn with_level<S: Level>(self, simd: S) {
            let lanes = S::U32_LANES;
            let scan = PrefixSum::new(simd);
            let v = load_u32s::<S>(self.0);
            store_u32s::<S>(self.1, scan.u32s(simd, v));
            let f: Vec<f32> = self.0[..lanes].iter().map(|&x| x as f32).collect();
            let fv = load_f32s::<S>(&f);
            let mut out = vec![0.0f32; lanes];
            store_f32s::<S>(&mut out, scan.f32s(simd, fv));
            let expected: Vec<f32> = self.1[..lanes].iter().map(|&x| x as f32).collect();
            assert_eq!(out, expected);
            store_f32s::<S>(&mut out, simd.broadcast_last_f32s(fv));
            for (o, l) in self.2.iter_mut().zip(&out) {
                *o = *l as u32;
            }
        }
    }

    #[test]
    fn prefix_sums_and_broadcasts() {
        at_every_level(|isa| {
            let input: Vec<u32> = (1..=16).collect();
            let (mut scan, mut last) = (vec![0; 16], vec![0; 16]);
            isa.dispatch(Scan(&input, &mut scan, &mut last));
            let lanes = scan.iter().take_while(|&&x| x != 0).count();
            let expected: Vec<u32> = (1..=lanes as u32).map(|i| i * (i + 1) / 2).collect();
            assert_eq!(scan[..lanes], expected, "{}", isa.name());
            assert!(last[..lanes].iter().all(|&x| x == lanes as u32), "{}", isa.name());
        });
    }

    struct Round<'a>(&'a mut [f32], &'a mut [u8]);
    impl WithLevel for Round<'_> {
        type Output = ();
        #[inline(always)]
        fn with_level<S: Level>(self, simd: S) {
            round_to_u8(simd, self.0, self.1);
        }
    }

    #[test]
    fn rounds_half_up_and_saturates_at_every_level() {
        // The largest float below 0.5 (`next_down` needs a newer Rust than the workspace's 1.85).
        let below_half = f32::from_bits(0.5f32.to_bits() - 1);
        let cases = [
            (below_half, 0),
            (0.5, 1),
            (1.5, 2),
            (2.5, 3),
            (254.5, 255),
            (254.49998, 254),
            (300.0, 255),
            (-3.0, 0),
            (-0.5, 0),
            (7.0, 7),
            (7.000001, 7),
            (6.9999995, 7),
        ];
        at_every_level(|isa| {
            // Long enough that every level takes some through the vector loop and some through the tail.
            let mut values: Vec<f32> = cases.iter().cycle().take(37).map(|c| c.0).collect();
            let expected: Vec<u8> = cases.iter().cycle().take(37).map(|c| c.1).collect();
            let mut got = vec![0u8; values.len()];
            isa.dispatch(Round(&mut values, &mut got));
            assert_eq!(got, expected, "{}", isa.name());
        });
    }
}
