"""A ReFrame test that runs a dspbench scenario as a batch job and exposes its cells as
performance variables, for HPC centres that track benchmarks with ReFrame:

    reframe -C integrations/reframe/settings.py -c integrations/reframe/dspbench_check.py -r \
        -S dspbench_check.dspbench=$PWD/target/release/dspbench

Every verified cell becomes a performance variable `<workload> <variant> <backend> <params>` in
milliseconds (the median kernel time), so ReFrame's performance logs track each one over time;
`-S dspbench_check.scenario=...` picks another scenario. The test fails (sanity) when dspbench
exits non-zero or any cell is not verified against the reference.
"""

import json
import os

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_after, run_before, sanity_function, variable

REPOSITORY = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def read_records(path):
    """The records of a results.jsonl (docs/results.md), skipping a cut-off last line."""
    records = []
    with open(path) as f:
        for line in f:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                break
    return records


def cell_name(record):
    params = " ".join(f"{k}={v}" for k, v in sorted(record["params"].items()))
    return f"{record['workload']} {record['variant']} {record['backend']} {params}"


@sn.deferrable
def every_cell_verified(path):
    records = read_records(path)
    measured = [r for r in records if r["status"] != "unavailable"]
    bad = [f"{cell_name(r)}: {r['status']} {r.get('reason') or ''}" for r in measured if not r["verified"]]
    return sn.assert_true(measured and not bad, msg=f"cells not verified: {bad or 'no cells measured'}")


@rfm.simple_test
class dspbench_check(rfm.RunOnlyRegressionTest):
    descr = "dspbench scenario, every cell verified, medians as performance variables"
    valid_systems = ["*"]
    valid_prog_environs = ["*"]
    time_limit = "15m"
    #: The dspbench binary (a path the compute nodes can reach).
    dspbench = variable(str, value="dspbench")
    #: A scenario file, relative to the repository or absolute.
    scenario = variable(str, value="scenarios/smoke.yaml")
    #: Backends to run, comma-separated; empty for every backend found on the node.
    backends = variable(str, value="")

    @run_after("init")
    def set_command(self):
        self.executable = self.dspbench
        scenario = os.path.join(REPOSITORY, self.scenario)
        self.executable_opts = ["run", scenario, "--out", "results", "--machine", "$SLURM_JOB_PARTITION"]
        if self.backends:
            self.executable_opts += ["--backends", self.backends]

    @sanity_function
    def validate(self):
        results = os.path.join(self.stagedir, "results", "results.jsonl")
        return sn.all([sn.assert_found(r"done: ", self.stderr), every_cell_verified(results)])

    @run_before("performance")
    def set_performance_variables(self):
        results = os.path.join(self.stagedir, "results", "results.jsonl")
        self.perf_variables = {
            cell_name(r): sn.make_performance_function(sn.defer(r["kernel_ms"]["median"]), "ms")
            for r in read_records(results)
            if r["status"] == "ok" and r["verified"]
        }
