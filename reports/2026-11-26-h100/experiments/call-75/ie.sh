#!/bin/bash
# Session 11, call 75: CUDA fft stockham 2^15, the fold in one block (FOLD = 3) against the two-block fold, the
# four-step and cuFFT; the CUDA test binary's fold test.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ie.sh .gpu/me/fold.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 120 $S/cuda_tests --test-threads=1 stockham_folds > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked\|error" $R/cuda-tests.txt | head -6 | cut -c1-600
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/fold.yaml --machine h100 --out $R/fold > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/fold/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], r['variant'][:8], p['batch'], p.get('fold','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('registers',''), e.get('grid',''), (r.get('reason') or '')[:200])
" | sort -k3,3n -k2,2 -k4,4
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
