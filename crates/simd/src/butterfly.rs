//! The small DFTs the Stockham passes are built from (radix 2, 4 and 8, and the odd radices 3,
//! 5 and 7, forward), applied to whole vectors of complex lanes: lane l of every input belongs to
//! one butterfly.
//!
//! The odd radices use the symmetric form: with a_j = x_j + x_(R-j) and b_j = x_j - x_(R-j) for
//! 1 <= j <= (R-1)/2, output k and R-k share the real-constant sums
//! m_k = x_0 + sum_j cos(2 pi j k / R) a_j and n_k = sum_j sin(2 pi j k / R) b_j, and are
//! m_k -/+ i n_k: (R-1)^2/2 real multiply-adds on each part instead of (R-1)^2 complex multiplies.

use crate::level::Level;
use crate::vector::{mul_neg_i, scale_c32s};
use dspbench_core::Complex32;
use pulp::bytemuck::cast;

/// The radix-`R` pieces of a pass.
pub(crate) trait Butterfly<const R: usize> {
    /// `y[k] = sum_j x[j] * exp(-2 pi i j k / R)`, lane by lane.
    fn dft<S: Level>(simd: S, x: [S::c32s; R]) -> [S::c32s; R];

    /// The R vectors laid out lane-major: memory order x[0][0], x[1][0], .., x[R-1][0], x[0][1], ..
    /// (what a pass vectorised across butterflies stores, each butterfly's R outputs adjacent).
    fn interleave<S: Level>(simd: S, x: [S::c32s; R]) -> [S::c32s; R];
}

/// Implements [`Butterfly`] for the radices used.
pub(crate) struct Radix;

impl Butterfly<2> for Radix {
    #[inline(always)]
    fn dft<S: Level>(simd: S, [a, b]: [S::c32s; 2]) -> [S::c32s; 2] {
        [simd.add_c32s(a, b), simd.sub_c32s(a, b)]
    }

    #[inline(always)]
    fn interleave<S: Level>(simd: S, [a, b]: [S::c32s; 2]) -> [S::c32s; 2] {
        let (first, second) = simd.zip_c32s(a, b);
        [first, second]
    }
}

impl Butterfly<4> for Radix {
    #[inline(always)]
    fn dft<S: Level>(simd: S, [a, b, c, d]: [S::c32s; 4]) -> [S::c32s; 4] {
        let (a_plus_c, a_minus_c) = (simd.add_c32s(a, c), simd.sub_c32s(a, c));
        let (b_plus_d, b_minus_d) = (simd.add_c32s(b, d), mul_neg_i(simd, simd.sub_c32s(b, d)));
        [
            simd.add_c32s(a_plus_c, b_plus_d),
            simd.add_c32s(a_minus_c, b_minus_d),
            simd.sub_c32s(a_plus_c, b_plus_d),
            simd.sub_c32s(a_minus_c, b_minus_d),
        ]
    }

    /// Zipping x0 with x2 and x1 with x3 gives x0[l] x2[l] and x1[l] x3[l] pairs in lane order;
    /// zipping those sequences again puts x0[l] x1[l] x2[l] x3[l] together.
    #[inline(always)]
    fn interleave<S: Level>(simd: S, [x0, x1, x2, x3]: [S::c32s; 4]) -> [S::c32s; 4] {
        let (a0, a1) = simd.zip_c32s(x0, x2);
        let (b0, b1) = simd.zip_c32s(x1, x3);
        let (y0, y1) = simd.zip_c32s(a0, b0);
        let (y2, y3) = simd.zip_c32s(a1, b1);
        [y0, y1, y2, y3]
    }
}

impl Butterfly<8> for Radix {
    /// Radix 2 on top of two radix-4 DFTs (even and odd inputs), joined by the eighth roots of unity.
    #[inline(always)]
    fn dft<S: Level>(simd: S, x: [S::c32s; 8]) -> [S::c32s; 8] {
        let even = <Radix as Butterfly<4>>::dft(simd, [x[0], x[2], x[4], x[6]]);
        let odd = <Radix as Butterfly<4>>::dft(simd, [x[1], x[3], x[5], x[7]]);
        let half_sqrt2 = std::f32::consts::FRAC_1_SQRT_2;
        // w^k * odd[k] for w = exp(-i pi / 4): w = (1 - i) / sqrt 2, w^2 = -i, w^3 = (-1 - i) / sqrt 2.
        let turned = [
            odd[0],
            scale_c32s(simd, simd.add_c32s(odd[1], mul_neg_i(simd, odd[1])), half_sqrt2),
            mul_neg_i(simd, odd[2]),
            scale_c32s(simd, simd.sub_c32s(mul_neg_i(simd, odd[3]), odd[3]), half_sqrt2),
        ];
        let mut y = x;
        for k in 0..4 {
            y[k] = simd.add_c32s(even[k], turned[k]);
            y[k + 4] = simd.sub_c32s(even[k], turned[k]);
        }
        y
    }

    /// Two 4-way interleaves (even and odd vectors), then a zip of the two sequences.
    #[inline(always)]
    fn interleave<S: Level>(simd: S, x: [S::c32s; 8]) -> [S::c32s; 8] {
        let even = <Radix as Butterfly<4>>::interleave(simd, [x[0], x[2], x[4], x[6]]);
        let odd = <Radix as Butterfly<4>>::interleave(simd, [x[1], x[3], x[5], x[7]]);
        let mut y = x;
        for k in 0..4 {
            [y[2 * k], y[2 * k + 1]] = <Radix as Butterfly<2>>::interleave(simd, [even[k], odd[k]]);
        }
        y
    }
}

/// cos(2 pi m / 3) and sin(2 pi m / 3) for m < 3 (so c = -1/2, s = sqrt(3)/2 at m = 1).
const COS3: [f32; 3] = [1.0, -0.5, -0.5];
const SIN3: [f32; 3] = [0.0, 0.866_025_4, -0.866_025_4];
/// cos(2 pi m / 5) and sin(2 pi m / 5) for m < 5.
const COS5: [f32; 5] = [1.0, 0.309_017, -0.809_017, -0.809_017, 0.309_017];
const SIN5: [f32; 5] = [0.0, 0.951_056_5, 0.587_785_24, -0.587_785_24, -0.951_056_5];
/// cos(2 pi m / 7) and sin(2 pi m / 7) for m < 7.
const COS7: [f32; 7] = [1.0, 0.623_489_8, -0.222_520_93, -0.900_968_87, -0.900_968_87, -0.222_520_93, 0.623_489_8];
const SIN7: [f32; 7] = [0.0, 0.781_831_5, 0.974_927_9, 0.433_883_73, -0.433_883_73, -0.974_927_9, -0.781_831_5];

/// `acc + a * c` for a real `c`: one fused (or multiply and add) step on the parts as f32 lanes,
/// a complex multiply and add on pulp's one-lane `scalar` level.
#[inline(always)]
fn mul_add_real<S: Level>(simd: S, a: S::c32s, c: f32, acc: S::c32s) -> S::c32s {
    if size_of::<S::c32s>() == size_of::<S::f32s>() {
        cast(simd.multiply_add_f32s(cast(a), simd.splat_f32s(c), cast(acc)))
    } else {
        simd.add_c32s(scale_c32s(simd, a, c), acc)
    }
}

/// The DFT of odd radix `R` (H = (R - 1) / 2) in the symmetric form of the module documentation;
/// `cos` and `sin` hold cos and sin of 2 pi m / R for m < R.
#[inline(always)]
fn odd_dft<S: Level, const R: usize, const H: usize>(
    simd: S,
    x: [S::c32s; R],
    cos: &[f32; R],
    sin: &[f32; R],
) -> [S::c32s; R] {
    // a_j, and -i b_j: the -i of every m_k - i n_k taken once per input pair.
    let a: [S::c32s; H] = std::array::from_fn(|j| simd.add_c32s(x[j + 1], x[R - 1 - j]));
    let b: [S::c32s; H] = std::array::from_fn(|j| mul_neg_i(simd, simd.sub_c32s(x[j + 1], x[R - 1 - j])));
    let mut y = x;
    y[0] = a.iter().fold(x[0], |sum, &a| simd.add_c32s(sum, a));
    for k in 1..=H {
        let mut m = x[0];
        let mut n = scale_c32s(simd, b[0], sin[k % R]);
        for j in 0..H {
            m = mul_add_real(simd, a[j], cos[(j + 1) * k % R], m);
            if j > 0 {
                n = mul_add_real(simd, b[j], sin[(j + 1) * k % R], n);
            }
        }
        y[k] = simd.add_c32s(m, n);
        y[R - k] = simd.sub_c32s(m, n);
    }
    y
}

/// [`Butterfly::interleave`] through memory, for any radix and level: the odd radices' first
/// passes run on the one-lane level (where it is the identity), so no shuffle form is needed.
#[inline(always)]
fn interleave_in_memory<S: Level, const R: usize>(x: [S::c32s; R]) -> [S::c32s; R] {
    let lanes = S::C32_LANES;
    let mut by_input = [[Complex32::default(); 16]; R];
    for (row, &v) in by_input.iter_mut().zip(&x) {
        S::as_mut_simd_c32s(&mut row[..lanes]).0[0] = v;
    }
    let mut lane_major = [[Complex32::default(); 16]; R];
    for e in 0..R * lanes {
        lane_major[e / lanes][e % lanes] = by_input[e % R][e / R];
    }
    std::array::from_fn(|v| S::as_simd_c32s(&lane_major[v][..lanes]).0[0])
}

impl Butterfly<3> for Radix {
    /// c = -1/2, s = sqrt(3)/2: y0 = x0 + a, y1,2 = x0 + c a -/+ i s b.
    #[inline(always)]
    fn dft<S: Level>(simd: S, x: [S::c32s; 3]) -> [S::c32s; 3] {
        odd_dft::<S, 3, 1>(simd, x, &COS3, &SIN3)
    }

    #[inline(always)]
    fn interleave<S: Level>(_: S, x: [S::c32s; 3]) -> [S::c32s; 3] {
        interleave_in_memory::<S, 3>(x)
    }
}

impl Butterfly<5> for Radix {
    #[inline(always)]
    fn dft<S: Level>(simd: S, x: [S::c32s; 5]) -> [S::c32s; 5] {
        odd_dft::<S, 5, 2>(simd, x, &COS5, &SIN5)
    }

    #[inline(always)]
    fn interleave<S: Level>(_: S, x: [S::c32s; 5]) -> [S::c32s; 5] {
        interleave_in_memory::<S, 5>(x)
    }
}

impl Butterfly<7> for Radix {
    #[inline(always)]
    fn dft<S: Level>(simd: S, x: [S::c32s; 7]) -> [S::c32s; 7] {
        odd_dft::<S, 7, 3>(simd, x, &COS7, &SIN7)
    }

    #[inline(always)]
    fn interleave<S: Level>(_: S, x: [S::c32s; 7]) -> [S::c32s; 7] {
        interleave_in_memory::<S, 7>(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Isa;
    use crate::level::WithLevel;
    use dspbench_core::Complex32;

    fn load_c32s<S: Level>(src: &[Complex32]) -> S::c32s {
        S::as_simd_c32s(&src[..S::C32_LANES]).0[0]
    }

    fn store_c32s<S: Level>(dst: &mut [Complex32], value: S::c32s) {
        S::as_mut_simd_c32s(&mut dst[..S::C32_LANES]).0[0] = value;
    }

    /// Applies radix `R`'s dft and interleave to `R` vectors read from `input`.
    struct Apply<'a, const R: usize> {
        input: &'a [Complex32],
        dft: &'a mut [Complex32],
        interleaved: &'a mut [Complex32],
    }

    impl<const R: usize> WithLevel for Apply<'_, R>
    where
        Radix: Butterfly<R>,
    {
        type Output = usize;
        #[inline(always)]
        fn with_level<S: Level>(self, simd: S) -> usize {
            let lanes = S::C32_LANES;
            let x: [S::c32s; R] = std::array::from_fn(|j| load_c32s::<S>(&self.input[j * lanes..]));
            for (j, v) in Radix::dft(simd, x).into_iter().enumerate() {
                store_c32s::<S>(&mut self.dft[j * lanes..], v);
            }
            for (j, v) in Radix::interleave(simd, x).into_iter().enumerate() {
                store_c32s::<S>(&mut self.interleaved[j * lanes..], v);
            }
            lanes
        }
    }

    fn check<const R: usize>()
    where
        Radix: Butterfly<R>,
    {
        for isa in Isa::available() {
            let input: Vec<Complex32> =
                (0..8 * R).map(|i| Complex32::new(i as f32, (i * i % 7) as f32 - 3.0)).collect();
            let (mut dft, mut interleaved) = (vec![Complex32::default(); 8 * R], vec![Complex32::default(); 8 * R]);
            let lanes = isa.dispatch(Apply::<R> { input: &input, dft: &mut dft, interleaved: &mut interleaved });
            for lane in 0..lanes {
                for k in 0..R {
                    let expected: Complex32 = (0..R)
                        .map(|j| {
                            let angle = -2.0 * std::f64::consts::PI * (j * k) as f64 / R as f64;
                            input[j * lanes + lane] * Complex32::new(angle.cos() as f32, angle.sin() as f32)
                        })
                        .sum();
                    let got = dft[k * lanes + lane];
                    assert!(
                        (got - expected).norm() < 1e-4,
                        "{} R={R} lane {lane} k {k}: {got} vs {expected}",
                        isa.name()
                    );
                    assert_eq!(interleaved[lane * R + k], input[k * lanes + lane], "{} R={R}", isa.name());
                }
            }
        }
    }

    #[test]
    fn small_dfts_and_interleaves_at_every_level() {
        check::<2>();
        check::<4>();
        check::<8>();
        check::<3>();
        check::<5>();
        check::<7>();
    }

    #[test]
    fn odd_radix_constants_are_the_roots_of_unity() {
        fn check(cos: &[f32], sin: &[f32]) {
            let r = cos.len();
            for m in 0..r {
                let angle = 2.0 * std::f64::consts::PI * m as f64 / r as f64;
                assert!((cos[m] as f64 - angle.cos()).abs() < 1e-7, "cos 2 pi {m}/{r}");
                assert!((sin[m] as f64 - angle.sin()).abs() < 1e-7, "sin 2 pi {m}/{r}");
            }
        }
        check(&COS3, &SIN3);
        check(&COS5, &SIN5);
        check(&COS7, &SIN7);
    }
}
