#!/bin/bash
# Where the ring form waits: Nsight Compute's stall sampling by SASS address (8K m = 31), and the ring
# form with loads two steps ahead (k-ahead2) against one step ahead.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hd.sh $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 150 $NCU --target-processes all -k regex:"^box_filter_fast_ring_u8\$" --launch-skip 3 --launch-count 1 --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis_Tables --print-details all $S/dspbench run .gpu/me/hb1.yaml --out $R/hb1 > $R/ncu-ring-31.txt 2>&1
echo "ncu rc=$?"; grep -iE "stall|Address|0x[0-9a-f]{4,5} " $R/ncu-ring-31.txt | head -60
for v in base ahead2; do
  if [ $v = base ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench run .gpu/me/hb.yaml --machine h100 --out $R/hd-$v > $R/hd-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/hd-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['window'], p.get('form','-'), '%.4f'%k['median'], r['status'])
"
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
