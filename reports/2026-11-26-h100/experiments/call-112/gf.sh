#!/bin/bash
# Session 13, call 112: OpenCL f32 box filter at register caps 64 / 128 with 16 (default) or 32 (k-w32) loads in
# flight, CUDA beside; CUDA u8 word and ring forms, the committed kernels (k-old) against the word form's row
# phase reading its thread index where used (default). CUDA box tests first.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gf.sh .gpu/me/gf1.yaml .gpu/me/gf2.yaml $R/
timeout 200 $S/cuda_tests box > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "test result" $R/cuda-tests.txt; grep -A20 panicked $R/cuda-tests.txt | head -30
show() {
  python3 -c "
import json,sys
rs=[json.loads(l) for l in open(sys.argv[1]+'/results.jsonl')]
keys=sorted(set((r['backend'],r['params'].get('max_registers','-'),r['params'].get('form','-')) for r in rs))
for k in keys:
  print(*k, ' '.join('%s/%s %.4f'%(r['params']['width'],r['params']['window'],(r.get('kernel_ms') or {'median':0})['median']) for r in rs if (r['backend'],r['params'].get('max_registers','-'),r['params'].get('form','-'))==k))
" $1
}
for v in w16 w32; do
  if [ $v = w32 ]; then export DSPBENCH_KERNELS=.gpu/me/k-w32; else unset DSPBENCH_KERNELS; fi
  timeout 150 $S/dspbench run .gpu/me/gf1.yaml --machine h100 --device opencl=NVIDIA --out $R/gf1-$v > $R/gf1-$v.log 2>&1
  echo "== f32 $v rc=$?"; show $R/gf1-$v
done
for v in old new old2 new2; do
  if [ ${v%2} = old ]; then export DSPBENCH_KERNELS=.gpu/me/k-old; else unset DSPBENCH_KERNELS; fi
  timeout 100 $S/dspbench run .gpu/me/gf2.yaml --machine h100 --out $R/gf2-$v > $R/gf2-$v.log 2>&1
  echo "== u8 $v rc=$?"; show $R/gf2-$v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
