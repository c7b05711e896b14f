#!/usr/bin/env bash
# Starts a single-node Slurm on this machine (root, Debian's slurmctld, slurmd, slurm-client and
# munge installed), for the cluster tests; `stop-local.sh` stops it. Idempotent: a Slurm that
# already answers is left as it is. Follows the recipe verified in shared/docs/SLURM.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${DSPBENCH_SLURM_STATE:-/tmp/dspbench-slurm}
if sinfo -h >/dev/null 2>&1; then echo "slurm: already running"; exit 0; fi
host=$(hostname -s)
mkdir -p "$state/state" "$state/spool" /etc/slurm
sed -e "s|@HOST@|$host|g" -e "s|@CPUS@|$(nproc)|g" -e "s|@STATE@|$state|g" "$here/slurm.conf.in" > /etc/slurm/slurm.conf
if [ ! -f /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge && chown munge:munge /run/munge
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged
slurmctld
slurmd
# The node registers within seconds; wait until it takes jobs.
for _ in $(seq 1 30); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then echo "slurm: up ($host, $(nproc) CPUs)"; exit 0; fi
  sleep 1
done
echo "slurm: the node did not come up; see $state/*.log" >&2
exit 1
