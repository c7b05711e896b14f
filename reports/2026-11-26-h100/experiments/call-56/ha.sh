#!/bin/bash
# Session 10, first call: the u8 ring form's correctness (selftest of box-filter fast on CUDA, the CUDA
# test binary's box tests) and its time against the word form (ha.yaml).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ha.yaml .gpu/me/ha.sh $R/
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked\|FAIL" $R/cuda-tests.txt | head -5
DSPBENCH_REQUIRE=cuda timeout 120 $S/dspbench selftest --backends cuda --filter box-filter/fast > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/ha.yaml --machine h100 --out $R/ha > $R/ha.log 2>&1
echo "run rc=$?"; grep -i "mismatch\|error" $R/ha.log | head -3 | cut -c1-200
python3 -c "
import json
for l in open('$R/ha/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']; e=r['exec']
    print(p['width'], p['window'], p.get('form','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), e.get('registers',''), e.get('grid',''), r['status'], r.get('gbps',''))
"
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
