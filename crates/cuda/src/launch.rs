//! Launch geometry: the shapes a variant chose at plan time, checked against the device and
//! described in every record (`grid`, `block`, `shared_mem_bytes`, one entry per launch).

use crate::compile::Module;
use cudarc::driver::sys::CUfunction_attribute as FnAttr;
use cudarc::driver::{CudaFunction, LaunchConfig};
use dspbench_core::Error;
use std::collections::BTreeMap;

/// One kernel launch of a run: which entry, with which shape.
pub(crate) struct Launch {
    pub entry: &'static str,
    pub function: CudaFunction,
    pub config: LaunchConfig,
}

impl Launch {
    pub(crate) fn new(
        module: &Module,
        entry: &'static str,
        grid: (u32, u32),
        block: (u32, u32),
    ) -> Result<Launch, Error> {
        Launch::with_shared(module, entry, grid, block, 0)
    }

    /// A launch with `shared` bytes of dynamic shared memory; above the default 48 KiB the
    /// function is opted in to more.
    pub(crate) fn with_shared(
        module: &Module,
        entry: &'static str,
        grid: (u32, u32),
        block: (u32, u32),
        shared: u32,
    ) -> Result<Launch, Error> {
        let function = module.function(entry)?;
        if shared > 48 * 1024 {
            function
                .set_attribute(FnAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared as i32)
                .map_err(crate::error::driver(format!("allowing {entry} {shared} bytes of shared memory")))?;
        }
        let config =
            LaunchConfig { grid_dim: (grid.0, grid.1, 1), block_dim: (block.0, block.1, 1), shared_mem_bytes: shared };
        Ok(Launch { entry, function, config })
    }

    /// Blocks of this launch an SM holds at once (at least 1), from the compiled function's
    /// occupancy with the launch's block and dynamic shared memory: what a grid sized to fill
    /// the GPU in one wave, or a persistent grid, multiplies by the SMs.
    pub(crate) fn resident_blocks_per_sm(&self) -> Result<usize, Error> {
        let threads = self.config.block_dim.0 * self.config.block_dim.1 * self.config.block_dim.2;
        let blocks = self
            .function
            .occupancy_max_active_blocks_per_multiprocessor(threads, self.config.shared_mem_bytes as usize, None)
            .map_err(crate::error::driver(format!("asking {}'s occupancy", self.entry)))?;
        Ok(blocks.max(1) as usize)
    }

    fn shared_bytes(&self) -> u32 {
        let static_bytes = self.function.shared_size_bytes().unwrap_or(0).max(0) as u32;
        static_bytes + self.config.shared_mem_bytes
    }
}

/// Blocks needed to cover `items` with `per_block` each, as a grid dimension.
pub(crate) fn blocks_for(items: usize, per_block: usize, what: &str) -> Result<u32, Error> {
    let blocks = items.div_ceil(per_block.max(1)).max(1);
    u32::try_from(blocks)
        .ok()
        .filter(|&b| b <= i32::MAX as u32)
        .ok_or_else(|| Error::unsupported(format!("{what} needs {blocks} blocks, more than a grid holds")))
}

/// A 2-D grid of `x` by `y` blocks; CUDA caps the y dimension at 65535.
pub(crate) fn grid_2d(x: usize, y: usize, what: &str) -> Result<(u32, u32), Error> {
    if y > 65535 || x > i32::MAX as usize {
        return Err(Error::unsupported(format!("{what} needs a grid of {x} x {y} blocks, beyond CUDA's limits")));
    }
    Ok((x.max(1) as u32, y.max(1) as u32))
}

/// What the records say about a planned kernel: the sources it ran (sha256 and -D options)
/// and its launches in order.
pub(crate) fn describe(modules: &[&Module], launches: &[&Launch]) -> BTreeMap<String, String> {
    let mut d = BTreeMap::new();
    let join = |items: Vec<String>| items.join("; ");
    if !modules.is_empty() {
        let mut shas: Vec<String> = modules.iter().map(|m| m.source.sha256.clone()).collect();
        shas.dedup();
        d.insert("kernel_sha256".into(), join(shas));
        d.insert("kernel_file".into(), join(modules.iter().map(|m| format!("{}.cu", m.source.name)).collect()));
        d.insert("defines".into(), join(modules.iter().map(|m| m.defines.to_string()).collect()));
        d.insert("target".into(), join(modules.iter().map(|m| m.arch.to_string()).collect()));
    }
    if !launches.is_empty() {
        let dim = |(x, y, z): (u32, u32, u32)| format!("{x}x{y}x{z}");
        d.insert("entries".into(), join(launches.iter().map(|l| l.entry.to_string()).collect()));
        d.insert("grid".into(), join(launches.iter().map(|l| dim(l.config.grid_dim)).collect()));
        d.insert("block".into(), join(launches.iter().map(|l| dim(l.config.block_dim)).collect()));
        d.insert("shared_mem_bytes".into(), join(launches.iter().map(|l| l.shared_bytes().to_string()).collect()));
        // What the compiler made of each kernel: spills show as local memory.
        let attr = |l: &&Launch, f: fn(&CudaFunction) -> Result<i32, cudarc::driver::DriverError>| {
            f(&l.function).map_or_else(|_| "?".to_string(), |v| v.to_string())
        };
        d.insert("registers".into(), join(launches.iter().map(|l| attr(l, CudaFunction::num_regs)).collect()));
        d.insert(
            "local_mem_bytes".into(),
            join(launches.iter().map(|l| attr(l, CudaFunction::local_size_bytes)).collect()),
        );
    }
    d
}

/// Launches `launch` on `stream` as a programmatic dependent launch (sm_90 on): the driver may
/// start it before the grid ahead of it on the stream has ended, and the kernel itself waits
/// (`griddepcontrol.wait`) before it touches what that grid wrote. `params` points at each
/// argument's value, in the kernel's order.
///
/// # Safety
/// `params` must match the kernel's parameters in number, order and size, and the kernel must
/// wait for its predecessor before it reads or writes global memory another grid may use.
pub(crate) unsafe fn launch_dependent(
    stream: &cudarc::driver::CudaStream,
    launch: &Launch,
    params: &mut [*mut std::ffi::c_void],
) -> Result<(), cudarc::driver::DriverError> {
    use cudarc::driver::sys;
    stream.context().bind_to_thread()?;
    let mut attribute: sys::CUlaunchAttribute = std::mem::zeroed();
    attribute.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    let LaunchConfig { grid_dim, block_dim, shared_mem_bytes } = launch.config;
    let config = sys::CUlaunchConfig {
        gridDimX: grid_dim.0,
        gridDimY: grid_dim.1,
        gridDimZ: grid_dim.2,
        blockDimX: block_dim.0,
        blockDimY: block_dim.1,
        blockDimZ: block_dim.2,
        sharedMemBytes: shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs: &mut attribute,
        numAttrs: 1,
    };
    sys::cuLaunchKernelEx(&config, launch.function.cu_function(), params.as_mut_ptr(), std::ptr::null_mut()).result()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_up_and_never_vanish() {
        assert_eq!(blocks_for(1000, 256, "x"), Ok(4));
        assert_eq!(blocks_for(0, 256, "x"), Ok(1));
        assert!(blocks_for(usize::MAX / 2, 1, "x").is_err());
        assert_eq!(grid_2d(10, 65535, "x"), Ok((10, 65535)));
        assert!(matches!(grid_2d(10, 65536, "tiles"), Err(Error::Unsupported(m)) if m.contains("tiles")));
    }
}
