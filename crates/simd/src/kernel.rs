//! What a kernel of this backend runs on, the [`Cpu`]: an ISA level and a thread pool, fixed at
//! plan time. The life cycle around the kernels is the CPU backends' shared one (`dspbench-host`).

use crate::isa::Isa;
use crate::threads::Workers;
use dspbench_core::{Error, ExecInfo, Params};
use dspbench_host::ExecContext;
pub(crate) use dspbench_host::{check_len, copy_checked, wrong_workload, Element, Kernel, Planned};
use std::collections::BTreeMap;

/// Where a plan runs: the instruction-set level and the threads, both fixed at plan time.
pub(crate) struct Cpu {
    pub(crate) isa: Isa,
    /// Whether the `isa` tunable named the level (else it is the widest the CPU has, which a
    /// variant that has no code for it may lower).
    pub(crate) isa_named: bool,
    pub(crate) workers: Workers,
}

impl Cpu {
    /// The `isa` and `threads` tunables, or the best level and every core.
    pub(crate) fn from_tunables(tunables: &Params) -> Result<Cpu, Error> {
        let isa = Isa::from_tunables(tunables)?;
        let isa_named = tunables.get("isa").is_some();
        Ok(Cpu { isa, isa_named, workers: Workers::from_tunables(tunables)? })
    }
}

impl ExecContext for Cpu {
    fn exec_info(&self, chunks: usize, mut details: BTreeMap<String, String>) -> ExecInfo {
        details.insert("placement".into(), self.workers.placement());
        ExecInfo { isa: Some(self.isa.name().to_string()), threads: Some(self.workers.threads().min(chunks)), details }
    }
}
