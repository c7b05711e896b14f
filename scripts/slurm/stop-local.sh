#!/usr/bin/env bash
# Stops the Slurm that start-local.sh started, by its pid files (never by process name).
state=${DSPBENCH_SLURM_STATE:-/tmp/dspbench-slurm}
for pid in "$state/slurmd.pid" "$state/slurmctld.pid"; do
  [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
done
exit 0
