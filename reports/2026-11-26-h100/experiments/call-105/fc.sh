#!/bin/bash
# Session 13, call 105: the cluster fold at 2^15, loads before the remote stores: CUDA stockham tests, then the fold scenario (CUDA, NVIDIA's OpenCL).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/fc.sh .gpu/me/fb.yaml .gpu/me/fp.yaml $R/
timeout 200 $S/cuda_tests stockham > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "^test |test result" $R/cuda-tests.txt | head -20
grep -B2 -A25 "panicked" $R/cuda-tests.txt | head -60
timeout 200 $S/dspbench run .gpu/me/fb.yaml --machine h100 --device opencl=NVIDIA --out $R/fb > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log; grep -i "error\|mismatch\|fail" $R/run.log | head -5 | cut -c1-300
python3 -c "
import json
for l in open('$R/fb/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], r['variant'][:8], p['size'], p['batch'], p.get('fold','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], (r.get('reason') or '')[:200])
" | sort -k4,4n -k1,1 -k2,2
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 150 $NCU --target-processes all -k regex:"^fft_stockham_registers\$" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis -o $R/cluster $S/dspbench run .gpu/me/fp.yaml --out $R/fp > $R/ncu.txt 2>&1
echo "ncu rc=$?"
$NCU -i $R/cluster.ncu-rep --page details --print-details all > $R/cluster-details.txt 2>&1
grep -E "Duration|Throughput|Stall|Eligible|Registers|Issued|L2 Hit|Achieved Occ|Cluster|Spill|Local" $R/cluster-details.txt | head -70
$NCU -i $R/cluster.ncu-rep --page source --csv --print-source sass > $R/cluster-sass.csv 2>&1; xz -9 $R/cluster-sass.csv $R/cluster-details.txt
rm -rf $R/*/plots $R/*/report.html $R/*.ncu-rep
tar czf $OUT/results.tar.gz -C $R .
