//! Exact division of u32 lanes by a divisor fixed at plan time, which vector units lack:
//! Granlund and Montgomery's multiply-high method ("Division by Invariant Integers using
//! Multiplication", PLDI 1994, figure 4.1). The u8 box means need it: floor(sum / m^2) on sums up
//! to 2^32, where an f32 quotient would not be exact.

use crate::level::Level;

/// Divides by one `divisor`: q = (t + ((n - t) >> shift1)) >> shift2 with t = mulhi(multiplier, n),
/// exact for every u32 n and every divisor >= 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Divider {
    multiplier: u32,
    shift1: u32,
    shift2: u32,
}

impl Divider {
    pub(crate) fn new(divisor: u32) -> Divider {
        assert!(divisor > 0, "division by zero");
        // l = ceil(log2 d); multiplier = floor(2^32 (2^l - d) / d) + 1, below 2^32 since 2^l - d < d.
        let l = u32::BITS - (divisor - 1).leading_zeros();
        let d = u64::from(divisor);
        let multiplier = ((1u64 << 32) * ((1u64 << l) - d) / d + 1) as u32;
        Divider { multiplier, shift1: l.min(1), shift2: l.saturating_sub(1) }
    }

    /// `n / divisor`, one value.
    #[cfg(test)]
    fn divide(self, n: u32) -> u32 {
        let t = ((u64::from(self.multiplier) * u64::from(n)) >> 32) as u32;
        (t + ((n - t) >> self.shift1)) >> self.shift2
    }

    /// `n / divisor`, lane by lane.
    #[inline(always)]
    pub(crate) fn divide_u32s<L: Level>(self, simd: L, n: L::u32s) -> L::u32s {
        let (_, t) = simd.widening_mul_u32s(n, simd.splat_u32s(self.multiplier));
        let halfway = simd.wrapping_dyn_shr_u32s(simd.sub_u32s(n, t), simd.splat_u32s(self.shift1));
        simd.wrapping_dyn_shr_u32s(simd.add_u32s(t, halfway), simd.splat_u32s(self.shift2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Isa;
    use crate::level::WithLevel;
    use crate::vector::{load_u32s, store_u32s};

    /// Numerators around every multiple of the divisor, and the extremes.
    fn numerators(d: u32) -> impl Iterator<Item = u32> {
        let near = (0..2000u64).flat_map(move |k| {
            let base = k * u64::from(d) * 2_147_483 % (1u64 << 32);
            [base.saturating_sub(1), base, base + 1]
        });
        near.chain([0, 1, u32::MAX as u64 - 1, u32::MAX as u64]).filter_map(|n| u32::try_from(n).ok())
    }

    #[test]
    fn exact_for_box_areas_and_awkward_divisors() {
        let areas = (1..=4099u32).step_by(2).map(|m| m * m);
        for d in areas.chain([2, 3, 7, 641, 65_537, 1 << 31, u32::MAX - 1, u32::MAX]) {
            let divider = Divider::new(d);
            for n in numerators(d) {
                assert_eq!(divider.divide(n), n / d, "{n} / {d}");
            }
        }
    }

    struct Lanes<'a>(Divider, &'a mut [u32]);
    impl WithLevel for Lanes<'_> {
        type Output = ();
        #[inline(always)]
        fn with_level<L: Level>(self, simd: L) {
            for chunk in self.1.chunks_exact_mut(L::U32_LANES) {
                let q = self.0.divide_u32s(simd, load_u32s::<L>(chunk));
                store_u32s::<L>(chunk, q);
            }
        }
    }

    #[test]
    fn lanes_divide_like_scalars_at_every_level() {
        for isa in Isa::available() {
            for d in [1, 9, 225, 4097 * 4097] {
                let divider = Divider::new(d);
                let n: Vec<u32> = numerators(d).take(1024).collect();
                let mut lanes = n.clone();
                isa.dispatch(Lanes(divider, &mut lanes));
                let expected: Vec<u32> = n.iter().map(|&n| n / d).collect();
                assert_eq!(lanes, expected, "{} / {d}", isa.name());
            }
        }
    }
}
