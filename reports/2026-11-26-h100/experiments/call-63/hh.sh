#!/bin/bash
# The ring form, 3 blocks an SM (ring mirror of 32 rows, stage over the column sums): correctness (CUDA box tests,
# selftest of box-filter fast) and time against the word form (ha.yaml).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hh.sh $R/
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -3 | cut -c1-600
DSPBENCH_REQUIRE=cuda timeout 120 $S/dspbench selftest --backends cuda --filter box-filter/fast > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "error\|fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
DSPBENCH_REQUIRE=cuda timeout 100 $S/dspbench run .gpu/me/ha.yaml --machine h100 --out $R/hh > $R/hh.log 2>&1
echo "run rc=$?"
python3 -c "
import json
for l in open('$R/hh/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['width'], p['window'], p.get('form','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], r['exec'].get('registers'), r['exec'].get('grid'))
"
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
