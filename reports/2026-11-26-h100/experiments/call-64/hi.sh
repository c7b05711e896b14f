#!/bin/bash
# The ring form at 3 blocks an SM: Nsight Compute's stall samples per SASS instruction (8K m = 31), and
# ablations (no copies in the loop, no column walk, no row sums; results wrong, times only).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hi.sh $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 150 $NCU --target-processes all -k regex:"^box_filter_fast_ring_u8\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters --section SchedulerStats -o $R/ring31 $S/dspbench run .gpu/me/hb1.yaml --out $R/hb1 > $R/ncu-ring-31.txt 2>&1
echo "ncu rc=$?"
$NCU -i $R/ring31.ncu-rep --page source --csv --print-source sass > $R/ring31-sass.csv 2>&1
echo "source rc=$? $(wc -l < $R/ring31-sass.csv) lines"; head -2 $R/ring31-sass.csv | cut -c1-600
$NCU -i $R/ring31.ncu-rep --page details --print-details all 2>&1 | grep -E "Duration|Issued Warp|Eligible Warps|Stall (Wait|Barrier|Short|Long|Not Sel|Math|No Inst|Dispatch|Branch)|Selected" | head -20
for v in base nofetch nowalk norow; do
  if [ $v = base ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench run .gpu/me/hb.yaml --machine h100 --out $R/hi-$v > $R/hi-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/hi-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['window'], p.get('form','-'), '%.4f'%k['median'], r['status'])
"
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
