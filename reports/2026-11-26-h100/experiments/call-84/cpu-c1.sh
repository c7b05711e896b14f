#!/bin/bash
# conv1d direct on the host's Xeon: the wide block x group variants in alternation (experiment).
set -u
mkdir -p /tmp/mestage /tmp/res && tar -C /tmp/mestage -xJf .gpu/me/bin.tar.xz
B=/tmp/mestage/dspbench
lscpu > /tmp/res/lscpu.txt
(cd /tmp/res && taskset -c 0,1 /tmp/mestage/simd_tests conv1d > simd-tests.txt 2>&1; echo "rc=$?" >> simd-tests.txt)
for round in 1 2; do
  for v in 8x1 8x4 12x4 16x4; do
    DSPBENCH_C1_WIDE=$v taskset -c 0,1 $B run .gpu/me/c1.yaml --out /tmp/res/c1-$v-$round --machine h100-host > /tmp/res/c1-$v-$round.log 2>&1
    echo "$v round $round"; grep -E "direct simd" /tmp/res/c1-$v-$round.log | tail -2
  done
done
tar -C /tmp/res -czf $OUT/results.tar.gz .
