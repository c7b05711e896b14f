#!/bin/bash
# The ring form with 4 walker warps of 2-column walkers (320 threads) and the prologue's second batch
# arriving while the walkers start: correctness, time against the word form at 3 blocks an SM (64
# registers) and at 2 (k-two).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hj.sh $R/
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -3 | cut -c1-600
DSPBENCH_REQUIRE=cuda timeout 120 $S/dspbench selftest --backends cuda --filter box-filter/fast > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "error\|fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
for v in base two; do
  if [ $v = base ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  DSPBENCH_REQUIRE=cuda timeout 100 $S/dspbench run .gpu/me/ha.yaml --machine h100 --out $R/hj-$v > $R/hj-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/hj-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['width'], p['window'], p.get('form','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], r['exec'].get('registers'), r['exec'].get('grid'))
"
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
