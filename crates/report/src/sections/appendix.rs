//! Every record, one row each, under the name tables and figures cite it by (`folder#record`).

use crate::cell;
use crate::doc::{one_line, Block, Table};
use crate::format::{fmt_ms, fmt_sig, params_text};
use crate::model::Model;
use dspbench_results::Status;

pub(crate) fn blocks(model: &Model) -> Vec<Block> {
    let mut table = Table::new(
        [
            ("record", false),
            ("scenario #", false),
            ("workload", false),
            ("variant", false),
            ("lane", false),
            ("device", false),
            ("parameters", false),
            ("status", false),
            ("ms: median [95% interval] (samples)", true),
            ("MAD %", true),
            ("GFLOP/s", true),
            ("GB/s", true),
            ("clock", false),
            ("copies up / down ms", true),
        ]
        .map(|(h, n)| (h.to_string(), n)),
    );
    for (i, e) in model.entries.iter().enumerate() {
        let r = e.record;
        let status = match r.status {
            Status::Ok if r.verified => "ok".to_string(),
            Status::Ok | Status::Mismatch => format!("mismatch: {}", one_line(r.reason.as_deref().unwrap_or(""))),
            _ => format!("{}: {}", r.status.name(), one_line(r.reason.as_deref().unwrap_or(""))),
        };
        let rate = |v: Option<f64>| v.map(|x| fmt_sig(x, 3)).unwrap_or_else(|| "—".into());
        table.push(vec![
            e.id.to_string(),
            format!("`{}` #{}", r.scenario, r.experiment + 1),
            format!("`{}`", r.workload),
            format!("`{}`", r.variant),
            model.lane_of(i).label.clone(),
            r.device.clone().unwrap_or_else(|| "—".into()),
            params_text(r.workload, &r.params),
            status,
            cell::stats(r),
            r.kernel_ms.map(|k| format!("{:.1}", 100.0 * k.relative_mad())).unwrap_or_else(|| "—".into()),
            rate(r.gflops),
            rate(r.gbps),
            r.kernel_clock.clone().unwrap_or_else(|| "—".into()),
            r.transfer_ms
                .map(|t| format!("{} / {}", fmt_ms(t.upload), fmt_ms(t.download)))
                .unwrap_or_else(|| "—".into()),
        ]);
    }
    vec![
        Block::Heading { level: 2, text: "Records".into() },
        Block::Paragraph(
            "Every record of every folder. `F#R` is record R (counted from 1) of `results.jsonl` in folder F (the \
             folders' order on the command line). Clock `device` is the device's own timer (CUDA events, OpenCL \
             profiling), `wall` the host clock around the run; copies are host↔device transfers, timed apart from \
             the kernel."
                .into(),
        ),
        Block::Collapsed { summary: format!("All {} records", model.entries.len()), table },
    ]
}
