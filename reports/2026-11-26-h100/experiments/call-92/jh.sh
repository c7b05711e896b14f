#!/bin/bash
# Session 12, call 92: the tensor-core u8 box filter  (call-90 form) at 4 blocks an SM (64 registers, G - 1 operand slots, 51 KB):
# the u8 form tests, the timing against CUDA's default, Nsight Compute at m = 17.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/jh.sh .gpu/me/box-mma.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=1 forms_agree > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/box-mma.yaml --machine h100 --out $R/box-mma > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log; grep -i "error\|fail" $R/run.log | head -5 | cut -c1-1500
python3 -c "
import json
for l in open('$R/box-mma/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(p['width'], p['window'], p.get('form','default'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('registers',''), e.get('local_mem_bytes',''), e.get('grid',''))
" | sort -k1,1n -k2,2n -k3
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 200 $NCU --target-processes all -k regex:"^box_filter_fast_mma_u8\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters --section SchedulerStats --section ComputeWorkloadAnalysis -o $R/mma17 $S/dspbench run .gpu/me/p1.yaml --out $R/p1 > $R/ncu-mma-17.txt 2>&1
echo "ncu rc=$?"
$NCU -i $R/mma17.ncu-rep --page details --print-details all > $R/mma17-details.txt 2>&1
grep -E "Duration|Memory Throughput|DRAM Throughput|Executed Ipc Active|Issue Slots Busy|No Eligible|Pipe (Alu|Fmaheavy|Tensor) Cycles|Inst Executed Pipe Lsu" $R/mma17-details.txt | head -14 | cut -c1-130
$NCU -i $R/mma17.ncu-rep --page source --csv --print-source sass > $R/mma17-sass.csv 2>&1
python3 .gpu/me/summ.py $R/mma17-sass.csv
xz -9 $R/mma17-sass.csv
rm -rf $R/*/plots $R/*/report.html $R/p1
tar czf $OUT/results.tar.gz -C $R .
