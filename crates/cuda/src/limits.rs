//! The device limits that launch shapes are checked against, apart from the device itself so
//! that every configuration rule is a pure function, testable without a GPU.

use dspbench_core::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub sms: u32,
    pub max_threads_per_block: u32,
    pub max_threads_per_sm: u32,
    /// Shared memory one block may use once it opts in (more than the 48 KiB default).
    pub max_shared_per_block: usize,
}

impl Limits {
    /// An H100 SXM's limits, for tests.
    #[cfg(test)]
    pub(crate) const H100: Limits =
        Limits { sms: 132, max_threads_per_block: 1024, max_threads_per_sm: 2048, max_shared_per_block: 232_448 };

    /// Threads per block from tunable `threads` (or `default`): any count the device takes.
    pub(crate) fn threads(&self, value: Option<usize>, default: u32) -> Result<u32, Error> {
        let threads = value.map_or(Ok(default), |v| u32::try_from(v).map_err(|_| too_many_threads(v, self)))?;
        if threads > self.max_threads_per_block {
            return Err(too_many_threads(threads as usize, self));
        }
        Ok(threads)
    }

    /// Blocks per grid from tunable `blocks` (or `default`).
    pub(crate) fn blocks(&self, value: Option<usize>, default: u32) -> Result<u32, Error> {
        match value {
            None => Ok(default),
            Some(v) if v <= i32::MAX as usize => Ok(v as u32),
            Some(v) => Err(Error::unsupported(format!("blocks = {v} exceeds a grid's {} blocks", i32::MAX))),
        }
    }

    /// Blocks that fill the device once when each has `threads` threads.
    pub(crate) fn one_wave(&self, threads: u32) -> u32 {
        self.sms * (self.max_threads_per_sm / threads.max(1)).max(1)
    }
}

fn too_many_threads(threads: usize, limits: &Limits) -> Error {
    Error::unsupported(format!(
        "threads = {threads} exceeds this device's {} threads per block",
        limits.max_threads_per_block
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_and_blocks_default_and_are_bounded_by_the_device() {
        let l = Limits::H100;
        assert_eq!(l.threads(None, 1024), Ok(1024));
        assert_eq!(l.threads(Some(96), 1024), Ok(96));
        assert!(
            matches!(l.threads(Some(2048), 1024), Err(Error::Unsupported(m)) if m.contains("1024 threads per block"))
        );
        assert_eq!(l.blocks(None, 7), Ok(7));
        assert!(matches!(l.blocks(Some(1 << 40), 7), Err(Error::Unsupported(_))));
        assert_eq!(l.one_wave(1024), 264);
        assert_eq!(l.one_wave(256), 1056);
    }
}
