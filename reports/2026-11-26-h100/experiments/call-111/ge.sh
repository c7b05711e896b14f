#!/bin/bash
# Session 13, call 111: f32 box filter, run starts shared and thread indices read where used (CUDA and OpenCL):
# CUDA box tests, box selftest of both GPU backends, then k-old / default interleaved twice, CUDA and NVIDIA's OpenCL.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ge.sh .gpu/me/ge.yaml $R/
timeout 200 $S/cuda_tests box > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "test result" $R/cuda-tests.txt; grep -A20 panicked $R/cuda-tests.txt | head -30
timeout 250 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1; echo "selftest rc=$?"; tail -1 $R/selftest.txt; grep -i fail $R/selftest.txt | grep -v " 0 failed" | head
for v in old new old2 new2; do
  if [ ${v%2} = old ]; then export DSPBENCH_KERNELS=.gpu/me/k-old; else unset DSPBENCH_KERNELS; fi
  timeout 100 $S/dspbench run .gpu/me/ge.yaml --machine h100 --device opencl=NVIDIA --out $R/ge-$v > $R/ge-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json,sys
rs=[json.loads(l) for l in open('$R/ge-'+sys.argv[1]+'/results.jsonl')]
for b in ('cuda','opencl'):
  print(b, ' '.join('%s/%s %.4f'%(r['params']['width'],r['params']['window'],(r.get('kernel_ms') or {'median':0})['median']) for r in rs if r['backend']==b))
" $v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
