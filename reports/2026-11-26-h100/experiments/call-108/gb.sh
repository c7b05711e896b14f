#!/bin/bash
# Session 13, call 108: f32 box filter run starts shared: CUDA box tests, box selftest of both GPU backends, then
# the f32 cells against the committed kernels (k-old) twice, interleaved.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gb.sh .gpu/me/gb.yaml $R/
timeout 200 $S/cuda_tests box > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "test result" $R/cuda-tests.txt; grep -A20 panicked $R/cuda-tests.txt | head -30
timeout 250 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1; echo "selftest rc=$?"; tail -4 $R/selftest.txt
for v in new old new2 old2; do
  if [ -d .gpu/me/k-${v%2} ] && [ ${v%2} = old ]; then export DSPBENCH_KERNELS=.gpu/me/k-old; else unset DSPBENCH_KERNELS; fi
  timeout 100 $S/dspbench run .gpu/me/gb.yaml --machine h100 --device opencl=NVIDIA --out $R/gb-$v > $R/gb-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json,sys
for l in open('$R/gb-'+sys.argv[1]+'/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], p['width'], p['window'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'])
" $v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
