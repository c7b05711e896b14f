//! Each measured cell's reference copy: its own bytes copied on its device
//! (`Backend::copy_of_bytes`), measured once a run for each backend, device and size, after the
//! first cell of that size has run, so that the device is as warm as for the cell.

use dspbench_core::{Backend, CopyOfBytes};
use dspbench_results::{Record, Status};
use std::collections::BTreeMap;

/// Where a copy failed, the record's `exec` names why under this key.
pub const COPY_FAILED: &str = "copy_of_bytes_failed";

/// (backend, device, bytes copied).
type Place = (&'static str, usize, usize);

/// A copy, why it failed, or `None` where the backend has none (CPU backends).
type Outcome = Option<Result<CopyOfBytes, String>>;

/// The copies measured so far in a run.
#[derive(Default)]
pub(crate) struct CopiesOfBytes {
    measured: BTreeMap<Place, Outcome>,
}

impl CopiesOfBytes {
    /// Adds to a measured cell's record the copy of half its bytes (read once and written once,
    /// as many as the cell moves), measuring it first if no cell of this size on this device
    /// has.
    pub(crate) fn attach(&mut self, backend: &dyn Backend, device: usize, record: &mut Record) {
        if record.status != Status::Ok || !record.bytes.is_finite() || record.bytes < 2.0 {
            return;
        }
        let bytes = (record.bytes / 2.0).round() as usize;
        let outcome = self
            .measured
            .entry((backend.name(), device, bytes))
            .or_insert_with(|| backend.copy_of_bytes(device, bytes).map(|r| r.map_err(|e| e.to_string())));
        match outcome {
            Some(Ok(copy)) => record.copy_of_bytes = Some(copy.clone()),
            Some(Err(why)) => {
                record.exec.insert(COPY_FAILED.into(), why.clone());
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::{Algorithm, Availability, Error, PlanRequest, VariantInfo};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A backend whose copy of `bytes` runs at `bytes` GB/s, or fails past 1000 bytes; counts
    /// its copies.
    #[derive(Default)]
    struct Copier {
        copies: AtomicUsize,
    }

    impl Backend for Copier {
        fn name(&self) -> &'static str {
            "copier"
        }
        fn availability(&self) -> Availability {
            Availability::Ready { devices: vec![] }
        }
        fn variants(&self) -> Vec<VariantInfo> {
            vec![]
        }
        fn plan(&self, _: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
            Err(Error::unsupported("plans nothing"))
        }
        fn copy_of_bytes(&self, _device: usize, bytes: usize) -> Option<Result<CopyOfBytes, Error>> {
            self.copies.fetch_add(1, Ordering::Relaxed);
            if bytes > 1000 {
                return Some(Err(Error::device("out of memory")));
            }
            let gbps = bytes as f64;
            Some(Ok(CopyOfBytes { bytes: bytes as u64, gbps, gbps_low: None, gbps_high: None, method: "m".into() }))
        }
    }

    fn record(status: Status, bytes: f64) -> Record {
        let mut r =
            crate::run::new_record("s", dspbench_core::Workload::BoxFilter, "copier", "fast", None, Default::default());
        r.status = status;
        r.bytes = bytes;
        r
    }

    #[test]
    fn a_measured_cell_gets_the_copy_of_half_its_bytes_measured_once_a_size() {
        let (backend, mut copies) = (Copier::default(), CopiesOfBytes::default());
        let mut first = record(Status::Ok, 200.0);
        copies.attach(&backend, 0, &mut first);
        assert_eq!(first.copy_of_bytes.as_ref().map(|c| (c.bytes, c.gbps)), Some((100, 100.0)));
        let mut again = record(Status::Ok, 200.0);
        copies.attach(&backend, 0, &mut again);
        assert_eq!(again.copy_of_bytes, first.copy_of_bytes);
        assert_eq!(backend.copies.load(Ordering::Relaxed), 1, "one copy a size and device");
        copies.attach(&backend, 1, &mut record(Status::Ok, 200.0));
        assert_eq!(backend.copies.load(Ordering::Relaxed), 2, "another device, another copy");
    }

    #[test]
    fn cells_not_measured_get_none_and_a_failed_copy_says_why() {
        let (backend, mut copies) = (Copier::default(), CopiesOfBytes::default());
        for status in [Status::Failed, Status::Mismatch, Status::Skipped] {
            let mut r = record(status, 200.0);
            copies.attach(&backend, 0, &mut r);
            assert!(r.copy_of_bytes.is_none() && r.exec.is_empty(), "{status:?}");
        }
        assert_eq!(backend.copies.load(Ordering::Relaxed), 0);
        let mut big = record(Status::Ok, 4000.0);
        copies.attach(&backend, 0, &mut big);
        assert!(big.copy_of_bytes.is_none());
        assert!(big.exec[COPY_FAILED].contains("out of memory"), "{:?}", big.exec);
    }
}
