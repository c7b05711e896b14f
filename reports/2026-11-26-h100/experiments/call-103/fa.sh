#!/bin/bash
# Session 13, call 103: the folded 2^15 FFT's ablations (second read, twiddle, stride-2 stores), then Nsight Compute on the default.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/fa.sh .gpu/me/fa.yaml .gpu/me/fp.yaml $R/
for v in none noread notw contig all; do
  if [ $v = none ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  timeout 100 $S/dspbench run .gpu/me/fa.yaml --machine h100 --out $R/fa-$v > $R/fa-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json,sys
for l in open('$R/fa-'+sys.argv[1]+'/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['variant'][:8], p['size'], p['batch'], p.get('path','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'])
" $v
done
unset DSPBENCH_KERNELS
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 150 $NCU --target-processes all -k regex:"^fft_stockham_registers\$" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis -o $R/fold $S/dspbench run .gpu/me/fp.yaml --out $R/fp > $R/ncu.txt 2>&1
echo "ncu rc=$?"
$NCU -i $R/fold.ncu-rep --page details --print-details all > $R/fold-details.txt 2>&1
grep -E "Duration|Throughput|Stall|Eligible|Registers|Issued|L2 Hit|Achieved Occ" $R/fold-details.txt | head -60
rm -rf $R/*/plots $R/*/report.html $R/*.ncu-rep
tar czf $OUT/results.tar.gz -C $R .
