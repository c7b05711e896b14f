//! The two image element types as the kernels see them (`-DDTYPE_U8` / `-DDTYPE_F32`), with
//! the window-sum type of the box filter.

use crate::memory::{POISON_FLOAT, POISON_U8};
use cudarc::driver::DeviceRepr;
use dspbench_core::{Output, Pixels};

pub(crate) trait Pixel: DeviceRepr + Copy + Default + Send + Sync + 'static {
    /// The macro selecting this type in the kernels.
    const DEFINE: &'static str;
    /// Byte the output is filled with before a run.
    const POISON: u8;
    /// The box filter's window-sum type: u32 for u8 (exact), f32 for f32.
    type Sum: DeviceRepr + Copy + Send + Sync + 'static;

    fn slice(pixels: &Pixels) -> Option<&[Self]>;
    /// The buffer of an output of this type.
    fn output_mut(output: &mut Output) -> Option<&mut [Self]>;
}

impl Pixel for u8 {
    const DEFINE: &'static str = "DTYPE_U8";
    const POISON: u8 = POISON_U8;
    type Sum = u32;

    fn slice(pixels: &Pixels) -> Option<&[u8]> {
        match pixels {
            Pixels::U8(v) => Some(v),
            Pixels::F32(_) => None,
        }
    }
    fn output_mut(output: &mut Output) -> Option<&mut [u8]> {
        match output {
            Output::U8(v) => Some(v),
            _ => None,
        }
    }
}

impl Pixel for f32 {
    const DEFINE: &'static str = "DTYPE_F32";
    const POISON: u8 = POISON_FLOAT;
    type Sum = f32;

    fn slice(pixels: &Pixels) -> Option<&[f32]> {
        match pixels {
            Pixels::F32(v) => Some(v),
            Pixels::U8(_) => None,
        }
    }
    fn output_mut(output: &mut Output) -> Option<&mut [f32]> {
        match output {
            Output::F32(v) => Some(v),
            _ => None,
        }
    }
}
