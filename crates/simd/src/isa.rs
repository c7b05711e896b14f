//! Instruction-set levels, chosen at run time.
//!
//! Every kernel of this crate is one generic function over [`Level`] (pulp's `Simd`, see
//! `level.rs`); an [`Isa`] holds the pulp token of one level, which exists only if the CPU running
//! the program has that level, and [`Isa::dispatch`] runs a kernel compiled for it. Nothing
//! depends on the CPU that built the binary: a build on an AVX-512 machine runs on an AVX2-only
//! one and picks `avx2` there.
//!
//! | `isa` | pulp token | instructions |
//! |---|---|---|
//! | `scalar` | `Scalar` | one lane, no target features: the same kernels as a portable baseline |
//! | `sse4.2` | `x86::V2` | x86-64-v2: SSE4.2 and POPCNT, 128-bit vectors |
//! | `avx2` | `x86::V3` | x86-64-v3: AVX2, FMA, BMI1/2, LZCNT, 256-bit vectors |
//! | `avx512` | `x86::V4` | x86-64-v4: AVX-512 F, BW, CD, DQ, VL, 512-bit vectors |
//! | `neon` | `aarch64::Neon` | AArch64 Advanced SIMD, 128-bit vectors |

use crate::level::{Level, Run, WithLevel};
use dspbench_core::{Error, Params};

/// The name of every level, in rising order: what `isa` accepts on some machine.
pub(crate) const NAMES: [&str; 5] = ["scalar", "sse4.2", "avx2", "avx512", "neon"];

/// One instruction-set level the running CPU has, with the pulp token that proves it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Isa {
    Scalar(pulp::Scalar),
    #[cfg(target_arch = "x86_64")]
    Sse42(pulp::x86::V2),
    #[cfg(target_arch = "x86_64")]
    Avx2(pulp::x86::V3),
    #[cfg(target_arch = "x86_64")]
    Avx512(pulp::x86::V4),
    #[cfg(target_arch = "aarch64")]
    Neon(pulp::aarch64::Neon),
}

impl Isa {
    /// Every level this CPU has, lowest first.
    pub(crate) fn available() -> Vec<Isa> {
        let mut levels = vec![Isa::Scalar(pulp::Scalar::new())];
        #[cfg(target_arch = "x86_64")]
        {
            levels.extend(pulp::x86::V2::try_new().map(Isa::Sse42));
            levels.extend(pulp::x86::V3::try_new().map(Isa::Avx2));
            levels.extend(pulp::x86::V4::try_new().map(Isa::Avx512));
        }
        #[cfg(target_arch = "aarch64")]
        levels.extend(pulp::aarch64::Neon::try_new().map(Isa::Neon));
        levels
    }

    /// The widest level this CPU has.
    pub(crate) fn best() -> Isa {
        Isa::available().pop().unwrap_or(Isa::Scalar(pulp::Scalar::new()))
    }

    /// The level named by the `isa` tunable, or the best one when it is not given. An unknown
    /// name is an input error; a level this CPU lacks is `Unsupported`, saying what is missing.
    pub(crate) fn from_tunables(tunables: &Params) -> Result<Isa, Error> {
        let Some(name) = tunables.string_opt("isa")? else { return Ok(Isa::best()) };
        if !NAMES.contains(&name) {
            return Err(Error::input(format!("parameter `isa` must be one of {}, got `{name}`", NAMES.join(", "))));
        }
        let available = Isa::available();
        available.iter().copied().find(|isa| isa.name() == name).ok_or_else(|| {
            let here: Vec<_> = available.iter().map(|isa| isa.name()).collect();
            Error::unsupported(format!(
                "isa `{name}` ({}) is not available on this CPU (it has: {})",
                requirement(name),
                here.join(", ")
            ))
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Isa::Scalar(_) => "scalar",
            #[cfg(target_arch = "x86_64")]
            Isa::Sse42(_) => "sse4.2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512(_) => "avx512",
            #[cfg(target_arch = "aarch64")]
            Isa::Neon(_) => "neon",
        }
    }

    /// Runs `op` with the token of this level, inside the level's `vectorize`, so its generic
    /// kernel is compiled with the level's instructions enabled.
    #[inline]
    pub(crate) fn dispatch<Op: WithLevel>(self, op: Op) -> Op::Output {
        match self {
            // One lane needs no target features.
            Isa::Scalar(simd) => op.with_level(simd),
            #[cfg(target_arch = "x86_64")]
            Isa::Sse42(simd) => simd.vectorize(Run { op, simd }),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2(simd) => simd.vectorize(Run { op, simd }),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512(simd) => simd.vectorize(Run { op, simd }),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon(simd) => simd.vectorize(Run { op, simd }),
        }
    }

    /// Complex f32 lanes in one vector of this level.
    pub(crate) fn c32_lanes(self) -> usize {
        struct Lanes;
        impl WithLevel for Lanes {
            type Output = usize;
            #[inline(always)]
            fn with_level<L: Level>(self, _: L) -> usize {
                L::C32_LANES
            }
        }
        self.dispatch(Lanes)
    }
}

/// What a level needs, for the message refusing it.
fn requirement(name: &str) -> &'static str {
    match name {
        "sse4.2" => "x86-64 with SSE4.2 and POPCNT",
        "avx2" => "x86-64 with AVX2, FMA, BMI1/2 and LZCNT",
        "avx512" => "x86-64 with AVX-512 F, BW, CD, DQ and VL",
        "neon" => "AArch64 with NEON",
        _ => "any CPU",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_is_always_there_and_best_is_the_last_level() {
        let levels = Isa::available();
        assert_eq!(levels[0].name(), "scalar");
        assert_eq!(Isa::best().name(), levels[levels.len() - 1].name());
        let names: Vec<_> = levels.iter().map(|isa| isa.name()).collect();
        let mut in_order = names.clone();
        in_order.sort_by_key(|n| NAMES.iter().position(|known| known == n));
        assert_eq!(names, in_order);
    }

    #[test]
    fn names_are_checked_and_missing_levels_are_unsupported() {
        assert_eq!(Isa::from_tunables(&Params::new()).unwrap().name(), Isa::best().name());
        let scalar = Params::new().with("isa", "scalar");
        assert_eq!(Isa::from_tunables(&scalar).unwrap().name(), "scalar");
        let typo = Params::new().with("isa", "avx-512");
        assert!(matches!(Isa::from_tunables(&typo), Err(Error::Input(msg)) if msg.contains("avx512")));
        let number = Params::new().with("isa", 2usize);
        assert!(matches!(Isa::from_tunables(&number), Err(Error::Input(_))));
        // No CPU has both x86 and AArch64 levels.
        let foreign = if cfg!(target_arch = "aarch64") { "avx2" } else { "neon" };
        let err = Isa::from_tunables(&Params::new().with("isa", foreign)).unwrap_err();
        assert!(matches!(&err, Error::Unsupported(msg) if msg.contains("not available")), "{err}");
    }
}
