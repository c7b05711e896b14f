//! One opened device: its context, the single stream every kernel, copy and event of this
//! backend uses, its facts, and what is measured or allocated once per device (the copy
//! bandwidth, the launch floor, the buffer that evicts the L2 cache).

use crate::error::driver;
use crate::facts::DeviceFacts;
use crate::memory::{alloc, fill_bytes};
use cudarc::driver::{CudaContext, CudaSlice, CudaStream};
use dspbench_core::{CopyOfBytes, Error};
use dspbench_stats::{DeviceCopy, LaunchFloor};
use std::sync::{Arc, Mutex, OnceLock};

pub(crate) struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub facts: DeviceFacts,
    eviction: Mutex<Option<CudaSlice<u8>>>,
    copy: OnceLock<Result<DeviceCopy, String>>,
    floor: OnceLock<Result<(LaunchFloor, &'static str), String>>,
    /// Held by whatever enqueues work on `stream`, so that two threads never use it at once: a
    /// batch being captured as a graph would take in another thread's work (seen: a test thread's
    /// launches captured into another's graph, replayed after their buffers were freed).
    serial: Mutex<()>,
}

impl Gpu {
    /// Opens device `ordinal` (the library must be present: see `probe`).
    pub(crate) fn open(ordinal: usize) -> Result<Gpu, Error> {
        let ctx = CudaContext::new(ordinal).map_err(driver(format!("opening CUDA device {ordinal}")))?;
        // One stream, so cudarc's per-buffer cross-stream events would only add work between
        // our timing events. Must precede every allocation.
        // SAFETY: all work of this backend is ordered on `stream`.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().map_err(driver("creating a CUDA stream"))?;
        let facts = DeviceFacts::read(&ctx).map_err(driver(format!("reading the attributes of device {ordinal}")))?;
        Ok(Gpu {
            ctx,
            stream,
            facts,
            eviction: Mutex::new(None),
            copy: OnceLock::new(),
            floor: OnceLock::new(),
            serial: Mutex::new(()),
        })
    }

    /// The stream to this thread alone until the guard drops (see `serial`). Not reentrant.
    pub(crate) fn exclusive(&self) -> std::sync::MutexGuard<'_, ()> {
        // The unit value cannot be left inconsistent by a panic: a poisoned lock is still good.
        self.serial.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Overwrites a buffer four times the size of the L2 cache, so the next run starts cold.
    pub(crate) fn evict_l2(&self) -> Result<(), Error> {
        let _stream = self.exclusive();
        let mut guard = self.eviction.lock().map_err(|_| Error::device("eviction buffer lock poisoned"))?;
        if guard.is_none() {
            let bytes = (4 * self.facts.l2_bytes).max(64 << 20);
            *guard = Some(alloc::<u8>(&self.stream, bytes, "evicting the L2 cache")?);
        }
        if let Some(buf) = guard.as_mut() {
            fill_bytes(&self.stream, buf, 0x5A)?;
        }
        self.stream.synchronize().map_err(driver("evicting the L2 cache"))
    }

    /// The device's copy bandwidth by each way it was measured (`copy_roof`), on first use, kept.
    fn copy(&self) -> Result<DeviceCopy, String> {
        self.copy.get_or_init(|| self.measure_copy().map_err(|e| e.to_string())).clone()
    }

    fn measure_copy(&self) -> Result<DeviceCopy, Error> {
        let _stream = self.exclusive();
        crate::copy_roof::measure(self)
    }

    /// A copy of `bytes` timed as a short cell is (`copy_roof::measure_like_a_cell`).
    pub(crate) fn copy_of_bytes(&self, bytes: usize) -> Result<CopyOfBytes, Error> {
        // The batch is sized by the large copy's rate; a guess where that failed only sizes it.
        let roof_gbps = self.copy().ok().and_then(|c| c.best().map(|(_, roof)| roof.gbps.point)).unwrap_or(1000.0);
        let _stream = self.exclusive();
        let copy = crate::copy_roof::measure_like_a_cell(self, bytes, roof_gbps)?;
        let (gbps, gbps_low, gbps_high, method) =
            copy.best_figure("copies").map_err(|why| Error::device(format!("copying {bytes} bytes: {why}")))?;
        let method = format!("{method}; each sample a batch of copies replayed as one graph between CUDA events");
        Ok(CopyOfBytes { bytes: bytes as u64, gbps, gbps_low, gbps_high, method })
    }

    /// The device's launch floor (`launch_floor`), on first use, kept.
    fn floor(&self) -> Result<(LaunchFloor, &'static str), String> {
        self.floor
            .get_or_init(|| {
                let _stream = self.exclusive();
                crate::launch_floor::measure(self).map_err(|e| e.to_string())
            })
            .clone()
    }

    /// The device's description for `DeviceInfo.details`.
    pub(crate) fn details(&self) -> std::collections::BTreeMap<String, String> {
        let mut details = self.facts.details();
        match self.copy() {
            Ok(copy) => details.extend(copy.details("copies")),
            Err(why) => {
                details.insert("copy_failed".into(), why);
            }
        }
        match self.floor() {
            Ok((floor, timer)) => details.extend(floor.details("an empty kernel (one block of 32 threads)", timer)),
            Err(why) => {
                details.insert("launch_floor_failed".into(), why);
            }
        }
        details
    }
}
