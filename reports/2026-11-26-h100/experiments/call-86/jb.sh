#!/bin/bash
# Session 12, call 86: the u8 box filter's tensor-core form, edges by the band matrix, no fills; copies 2 or 3 groups ahead: the CUDA test binary's u8 form tests (ring, words,
# mma forced on edge-rich images), then the form against CUDA's default in the same rounds.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/jb.sh .gpu/me/box-mma.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=1 forms_agree > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/box-mma.yaml --machine h100 --out $R/box-mma > $R/run.log 2>&1
echo "run rc=$?"; tail -2 $R/run.log; grep -i "error\|fail" $R/run.log | head -5 | cut -c1-1500
python3 -c "
import json
for l in open('$R/box-mma/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(p['width'], p['window'], p.get('form','default'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('registers',''), e.get('grid',''))
" | sort -k1,1n -k2,2n -k3
echo "--- IN_BUFS 4 (DSPBENCH_KERNELS=k4)"
DSPBENCH_KERNELS=$PWD/.gpu/me/k4 DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/box-mma.yaml --machine h100 --out $R/box-mma-k4 > $R/run-k4.log 2>&1
echo "run rc=$?"; tail -1 $R/run-k4.log
python3 -c "
import json
for l in open('$R/box-mma-k4/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(p['width'], p['window'], p.get('form','default'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('registers',''), e.get('grid',''))
" | sort -k1,1n -k2,2n -k3
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
