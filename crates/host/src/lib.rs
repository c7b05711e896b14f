//! What the CPU backends (`scalar`, `simd`) share, written once: the [`Algorithm`] life cycle
//! around a [`Kernel`], buffers on a cache line, the replicate border, the u8 rounding rules every u8 output must agree
//! on to the bit, the u8 box-window limit, and the CPU's name.
//!
//! [`Algorithm`]: dspbench_core::Algorithm

pub mod aligned;
pub mod border;
pub mod cpu;
mod lifecycle;
pub mod round;

pub use lifecycle::{check_len, copy_checked, wrong_workload, Element, ExecContext, Kernel, Planned};

use dspbench_core::{DType, Error};

/// The widest box window whose u8 sum (255 m²) and rounding (sum + m²/2) stay within u32: the
/// largest odd m with 255.5 m² <= u32::MAX. Wider u8 windows are refused as unsupported.
pub const MAX_U8_WINDOW: usize = 4099;

/// Refuses a u8 box window wider than [`MAX_U8_WINDOW`], for the variant named `variant`.
pub fn check_u8_window(variant: &str, dtype: DType, window: usize) -> Result<(), Error> {
    if dtype == DType::U8 && window > MAX_U8_WINDOW {
        return Err(Error::unsupported(format!(
            "box-filter `{variant}` sums u8 windows of at most {m}x{m} pixels exactly, got window {window}",
            m = MAX_U8_WINDOW
        )));
    }
    Ok(())
}
