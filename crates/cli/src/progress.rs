use dspbench_report::{fmt_ms, fmt_sig};
use dspbench_results::{Record, Status};
use dspbench_runner::Observer;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Shows a run's progress: a bar on a terminal, one plain line per cell otherwise (logs, CI).
pub struct Progress {
    bar: Option<ProgressBar>,
    /// The problem being measured.
    label: String,
    done: usize,
    total: usize,
}

impl Progress {
    pub fn new() -> Progress {
        Progress { bar: None, label: String::new(), done: 0, total: 0 }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn line(record: &Record) -> String {
        let what = format!("{} {} {} [{}]", record.workload, record.variant, record.backend, record.params_text());
        match (record.status, record.kernel_ms) {
            (Status::Ok, Some(k)) => {
                let interval = k.ci_rel.map_or("no interval".to_string(), |w| format!("±{}%", fmt_sig(w * 100.0, 2)));
                let how = record.sampling.as_ref().map_or(String::new(), |s| {
                    let batch = if s.batch > 1 { format!(", {} calls a sample", s.batch) } else { String::new() };
                    let pass =
                        if s.passes > 1 { format!(", pass {} of {}", s.pass + 1, s.passes) } else { String::new() };
                    format!("{batch}{pass}, stopped on {}", s.stop.name())
                });
                format!("{what}: {} ms {interval} (median of {}{how}) verified", fmt_ms(k.median), k.n)
            }
            (status, _) => {
                format!("{what}: {}: {}", status.name(), record.reason.as_deref().unwrap_or("").replace('\n', " "))
            }
        }
    }
}

impl Observer for Progress {
    fn start(&mut self, total_cells: usize) {
        self.total = total_cells;
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total_cells as u64);
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}")
                    .expect("the template is valid")
                    .progress_chars("=> "),
            );
            self.bar = Some(bar);
        }
    }

    fn cell_started(&mut self, label: &str) {
        self.label = label.to_string();
        if let Some(bar) = &self.bar {
            bar.set_message(label.to_string());
        }
    }

    fn round_finished(&mut self, round: u32, still_sampling: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{}: round {}, {still_sampling} still sampling", self.label, round + 1));
        }
    }

    fn cells_done_early(&mut self, count: usize) {
        match &self.bar {
            Some(bar) => bar.inc(count as u64),
            None => self.done += count,
        }
    }

    fn cell_finished(&mut self, record: &Record) {
        let line = Progress::line(record);
        match &self.bar {
            Some(bar) => {
                if record.status != Status::Ok {
                    bar.println(line);
                }
                if record.status != Status::Unavailable {
                    bar.inc(1);
                }
            }
            None => {
                if record.status != Status::Unavailable {
                    self.done += 1;
                }
                eprintln!("[{}/{}] {line}", self.done, self.total);
            }
        }
    }
}
