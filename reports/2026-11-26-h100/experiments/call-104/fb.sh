#!/bin/bash
# Session 13, call 104: the cluster fold at 2^15: CUDA stockham tests, then the fold scenario (CUDA, NVIDIA's OpenCL).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/fb.sh .gpu/me/fb.yaml $R/
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
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
