//! conv2d `fast`'s `staging` tunable, the same for both GPU backends: where a block keeps the
//! input pixels it convolves.

use dspbench_core::{Error, Params};
use std::fmt;

/// How conv2d `fast` holds its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv2dStaging {
    /// A tile of input (with its apron) staged in shared / local memory as float: any radius.
    Tile,
    /// No shared memory: each lane keeps its pixels in registers and takes the apron from its
    /// neighbours' words (by warp shuffles in CUDA, by loading them itself in OpenCL 1.2, which
    /// has none), so the radius is at most [`REGISTERS_MAX_RADIUS`].
    Registers,
}

/// The widest apron a lane's neighbours can hand over: one lane's 4 pixels.
pub const REGISTERS_MAX_RADIUS: usize = 4;

const NAMES: [&str; 2] = ["tile", "registers"];

impl Conv2dStaging {
    /// The staging named by the `staging` tunable, or when it is not given the backend's
    /// default for the image: `registers` up to [`REGISTERS_MAX_RADIUS`] where the backend
    /// measured it faster (`registers_faster`), `tile` otherwise. CUDA on an H200: 1.3x to 1.6x
    /// faster than `tile` for u8 and 1.1x to 1.2x for f32 at R = 1..4.
    pub fn from_tunables(tunables: &Params, radius: usize, registers_faster: bool) -> Result<Conv2dStaging, Error> {
        let staging = match tunables.string_opt("staging")? {
            None if registers_faster && radius <= REGISTERS_MAX_RADIUS => Conv2dStaging::Registers,
            None => Conv2dStaging::Tile,
            Some("tile") => Conv2dStaging::Tile,
            Some("registers") => Conv2dStaging::Registers,
            Some(other) => {
                return Err(Error::input(format!(
                    "parameter `staging` must be one of {}, got `{other}`",
                    NAMES.join(", ")
                )))
            }
        };
        if staging == Conv2dStaging::Registers && radius > REGISTERS_MAX_RADIUS {
            return Err(Error::unsupported(format!(
                "staging `registers` takes radius up to {REGISTERS_MAX_RADIUS} (the apron a neighbouring lane \
                 holds), got {radius}; use `tile`"
            )));
        }
        Ok(staging)
    }

    pub fn name(self) -> &'static str {
        match self {
            Conv2dStaging::Tile => "tile",
            Conv2dStaging::Registers => "registers",
        }
    }
}

impl fmt::Display for Conv2dStaging {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: &str) -> Params {
        Params::new().with("staging", name)
    }

    #[test]
    fn registers_by_default_up_to_radius_4_then_tile() {
        for radius in 1..=4 {
            assert_eq!(Conv2dStaging::from_tunables(&Params::new(), radius, true).unwrap(), Conv2dStaging::Registers);
        }
        for radius in 5..=8 {
            assert_eq!(Conv2dStaging::from_tunables(&Params::new(), radius, true).unwrap(), Conv2dStaging::Tile);
        }
    }

    #[test]
    fn named_stagings_are_taken_and_registers_beyond_its_radius_is_refused() {
        assert_eq!(Conv2dStaging::from_tunables(&with("tile"), 1, true).unwrap(), Conv2dStaging::Tile);
        assert_eq!(Conv2dStaging::from_tunables(&with("registers"), 4, true).unwrap(), Conv2dStaging::Registers);
        let err = Conv2dStaging::from_tunables(&with("registers"), 5, true).unwrap_err();
        assert!(matches!(err, Error::Unsupported(_)), "{err}");
        assert!(err.to_string().contains("radius up to 4"), "{err}");
    }

    #[test]
    fn where_registers_is_not_faster_tile_is_the_default_and_registers_is_taken_when_named() {
        assert_eq!(Conv2dStaging::from_tunables(&Params::new(), 1, false).unwrap(), Conv2dStaging::Tile);
        assert_eq!(Conv2dStaging::from_tunables(&with("registers"), 1, false).unwrap(), Conv2dStaging::Registers);
    }

    #[test]
    fn an_unknown_staging_is_an_input_error_naming_the_choices() {
        let err = Conv2dStaging::from_tunables(&with("texture"), 1, true).unwrap_err();
        assert!(matches!(err, Error::Input(_)), "{err}");
        assert!(err.to_string().contains("tile, registers"), "{err}");
        assert!(Conv2dStaging::from_tunables(&Params::new().with("staging", 3usize), 1, true).is_err());
    }
}
