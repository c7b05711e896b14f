//! [`Level`]: pulp's [`Simd`] plus the operations the kernels need that pulp lacks or does not
//! do fast everywhere, written per level with pulp's safe intrinsics (the token proves the
//! instructions exist), and [`WithLevel`], the kernels' entry point, which
//! [`crate::isa::Isa::dispatch`] calls.
//!
//! * A full-width zip of complex lanes. pulp's `interleave_shfl_f64s` permutes within 128-bit
//!   blocks on AVX2 and AVX-512 (its own deinterleave undoes it, but it is not the lane-major
//!   order the FFT's first pass must store).
//! * Lanes shifted up with zeros coming in, and the last lane in every lane: the steps of an
//!   in-register prefix sum and its carry to the next vector. pulp has only rotations, which on
//!   SSE4.2 go through memory lane by lane and on AVX2 take several instructions; there and on
//!   NEON one or two shifts do it (on AVX-512 pulp's rotation with the wrapped lanes masked off),
//!   and one permute broadcasts.
//! * A multiply-add that is one instruction where the level has FMA and a multiply and an add
//!   where it has not: pulp's `mul_add_f32s` is always fused, so on SSE4.2 it falls back to a
//!   software fused multiply-add per lane, many times slower than the two instructions.

use pulp::bytemuck::cast;
use pulp::Simd;

/// An instruction-set level the kernels run on.
pub(crate) trait Level: Simd {
    /// The lanes of `a` and `b` alternated: `(a0 b0 a1 b1 .., the second half of that sequence)`.
    fn zip_c32s(self, a: Self::c32s, b: Self::c32s) -> (Self::c32s, Self::c32s);

    /// The last lane of `v` in every lane.
    fn broadcast_last_f32s(self, v: Self::f32s) -> Self::f32s;

    /// `v` moved up `k` lanes (lane i takes lane i - k), zeros in the lowest `k`; `k` is a power
    /// of two below the lane count, and `keep` has all bits set from lane `k` up, none below.
    ///
    /// By default pulp's rotation with the wrapped-around lanes cleared by an AND with `keep`
    /// (LLVM makes that a permute and a masked move; made once by the caller, since LLVM does not
    /// hoist pulp's mask tables out of a loop). Levels with a lane-shift instruction use it.
    #[inline(always)]
    fn shift_up_u32s(self, v: Self::u32s, k: usize, keep: Self::u32s) -> Self::u32s {
        self.and_u32s(self.rotate_right_u32s(v, k), keep)
    }

    /// `a * b + c`, rounded once or twice: whichever the level does in one step.
    #[inline(always)]
    fn multiply_add_f32s(self, a: Self::f32s, b: Self::f32s, c: Self::f32s) -> Self::f32s {
        self.mul_add_f32s(a, b, c)
    }
}

/// A kernel, generic over the level it runs on (pulp's `WithSimd`, for [`Level`]).
pub(crate) trait WithLevel {
    type Output;
    fn with_level<L: Level>(self, simd: L) -> Self::Output;
}

/// Runs a [`WithLevel`] inside a level's `vectorize`, where its target features are enabled.
pub(crate) struct Run<Op, L> {
    pub(crate) op: Op,
    pub(crate) simd: L,
}

impl<Op: WithLevel, L: Level> pulp::NullaryFnOnce for Run<Op, L> {
    type Output = Op::Output;

    #[inline(always)]
    fn call(self) -> Op::Output {
        self.op.with_level(self.simd)
    }
}

impl Level for pulp::Scalar {
    #[inline(always)]
    fn zip_c32s(self, a: Self::c32s, b: Self::c32s) -> (Self::c32s, Self::c32s) {
        (a, b)
    }

    #[inline(always)]
    fn broadcast_last_f32s(self, v: f32) -> f32 {
        v
    }

    #[inline(always)]
    fn multiply_add_f32s(self, a: f32, b: f32, c: f32) -> f32 {
        a * b + c
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use pulp::x86::{V2, V3, V4};

    impl Level for V2 {
        #[inline(always)]
        fn zip_c32s(self, a: Self::c32s, b: Self::c32s) -> (Self::c32s, Self::c32s) {
            let (a, b) = (cast(a), cast(b));
            (cast(self.sse2._mm_unpacklo_pd(a, b)), cast(self.sse2._mm_unpackhi_pd(a, b)))
        }

        #[inline(always)]
        fn broadcast_last_f32s(self, v: Self::f32s) -> Self::f32s {
            let v = cast(v);
            cast(self.sse._mm_shuffle_ps::<0b11_11_11_11>(v, v))
        }

        #[inline(always)]
        fn shift_up_u32s(self, v: Self::u32s, k: usize, _: Self::u32s) -> Self::u32s {
            let v = cast(v);
            match k {
                1 => cast(self.sse2._mm_slli_si128::<4>(v)),
                2 => cast(self.sse2._mm_slli_si128::<8>(v)),
                _ => unreachable!("4 lanes shift by 1 or 2, not {k}"),
            }
        }

        #[inline(always)]
        fn multiply_add_f32s(self, a: Self::f32s, b: Self::f32s, c: Self::f32s) -> Self::f32s {
            self.add_f32s(self.mul_f32s(a, b), c)
        }
    }

    impl Level for V3 {
        #[inline(always)]
        fn zip_c32s(self, a: Self::c32s, b: Self::c32s) -> (Self::c32s, Self::c32s) {
            let (a, b) = (cast(a), cast(b));
            // Within each 128-bit half: [a0 b0 | a2 b2] and [a1 b1 | a3 b3]; then the halves regrouped.
            let (low, high) = (self.avx._mm256_unpacklo_pd(a, b), self.avx._mm256_unpackhi_pd(a, b));
            (
                cast(self.avx._mm256_permute2f128_pd::<0x20>(low, high)),
                cast(self.avx._mm256_permute2f128_pd::<0x31>(low, high)),
            )
        }

        #[inline(always)]
        fn broadcast_last_f32s(self, v: Self::f32s) -> Self::f32s {
            cast(self.avx2._mm256_permutevar8x32_ps(cast(v), self.avx._mm256_set1_epi32(7)))
        }

        /// pulp's AVX2 rotation emulates a 256-bit byte shuffle in several instructions. Here
        /// `low` = [0 | low half of v], and each 128-bit half of the result is the matching halves
        /// of (v, low) joined and shifted: the lanes of v moved up, the low half's top ones crossing.
        #[inline(always)]
        fn shift_up_u32s(self, v: Self::u32s, k: usize, _: Self::u32s) -> Self::u32s {
            let v = cast(v);
            let low = self.avx2._mm256_permute2x128_si256::<0x08>(v, v);
            match k {
                1 => cast(self.avx2._mm256_alignr_epi8::<12>(v, low)),
                2 => cast(self.avx2._mm256_alignr_epi8::<8>(v, low)),
                4 => cast(low),
                _ => unreachable!("8 lanes shift by 1, 2 or 4, not {k}"),
            }
        }
    }

    impl Level for V4 {
        #[inline(always)]
        fn zip_c32s(self, a: Self::c32s, b: Self::c32s) -> (Self::c32s, Self::c32s) {
            let (a, b) = (cast(a), cast(b));
            // Indices 0..8 pick from `a`, 8..16 from `b`.
            let first = self.avx512f._mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
            let second = self.avx512f._mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
            (
                cast(self.avx512f._mm512_permutex2var_pd(a, first, b)),
                cast(self.avx512f._mm512_permutex2var_pd(a, second, b)),
            )
        }

        #[inline(always)]
        fn broadcast_last_f32s(self, v: Self::f32s) -> Self::f32s {
            cast(self.avx512f._mm512_permutexvar_ps(self.avx512f._mm512_set1_epi32(15), cast(v)))
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod aarch64 {
    use super::*;
    use pulp::aarch64::Neon;

    impl Level for Neon {
        #[inline(always)]
        fn zip_c32s(self, a: Self::c32s, b: Self::c32s) -> (Self::c32s, Self::c32s) {
            let (a, b) = (cast(a), cast(b));
            (cast(self.neon.vzip1q_f64(a, b)), cast(self.neon.vzip2q_f64(a, b)))
        }

        #[inline(always)]
        fn broadcast_last_f32s(self, v: Self::f32s) -> Self::f32s {
            cast(self.neon.vdupq_laneq_f32::<3>(cast(v)))
        }

        /// `ext` of zeros and `v`: the 4 lanes starting 4 - k into the pair.
        #[inline(always)]
        fn shift_up_u32s(self, v: Self::u32s, k: usize, _: Self::u32s) -> Self::u32s {
            let (v, zero) = (cast(v), self.neon.vdupq_n_u32(0));
            match k {
                1 => cast(self.neon.vextq_u32::<3>(zero, v)),
                2 => cast(self.neon.vextq_u32::<2>(zero, v)),
                _ => unreachable!("4 lanes shift by 1 or 2, not {k}"),
            }
        }
    }
}
