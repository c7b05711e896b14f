#!/bin/bash
# Why the ring form runs slower: Nsight Compute on it (8K m = 31), then ablations (no loads in the loop, no
# column walk, no row sums; results wrong, times only).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hb*.yaml .gpu/me/hb.sh $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 150 $NCU --target-processes all -k regex:"^box_filter_fast_ring_u8\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats $S/dspbench run .gpu/me/hb1.yaml --out $R/hb1 > $R/ncu-ring-31.txt 2>&1
echo "ncu rc=$?"; grep -E "Duration|Throughput|Warp Cycles|Stall|Achieved Occupancy|Theoretical Occupancy|Block Limit|Registers|Shared Memory Config|Dynamic Shared|L2 Hit|Issued|Eligible|No Eligible|Bank|bank|ERR" $R/ncu-ring-31.txt | head -60
for v in base nofetch nowalk norow; do
  if [ $v = base ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench run .gpu/me/hb.yaml --machine h100 --out $R/hb-$v > $R/hb-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/hb-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['window'], p.get('form','-'), '%.4f'%k['median'], r['status'])
"
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
