"""ReFrame site configuration for a single-node Slurm such as the one `scripts/slurm/start-local.sh`
starts (partitions p1 and p2 over one node). On a real cluster, copy the `partitions` entry and
set `access` to your partition, account and QoS; see docs/cluster.md.

The scheduler is `squeue`, not `slurm`: ReFrame's `slurm` scheduler polls `sacct`, which needs
Slurm's accounting daemon (slurmdbd); a site that runs one can use `slurm` instead.
"""

site_configuration = {
    "systems": [
        {
            "name": "local-slurm",
            "descr": "a single-node Slurm (scripts/slurm/start-local.sh)",
            "hostnames": [".*"],
            "modules_system": "nomod",
            "partitions": [
                {
                    "name": partition,
                    "descr": f"Slurm partition {partition}",
                    "scheduler": "squeue",
                    "launcher": "local",
                    "access": [f"--partition={partition}"],
                    "environs": ["plain"],
                    "max_jobs": 2,
                }
                for partition in ("p1", "p2")
            ],
        }
    ],
    "environments": [{"name": "plain", "cc": "cc", "cxx": "c++", "ftn": ""}],
}
