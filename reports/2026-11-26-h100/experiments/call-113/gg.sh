#!/bin/bash
# Session 13, call 113: OpenCL f32 box filter at register caps 64 / 80 / 96 / 128 with 16 (default), 20 (k-w20) or
# 24 (k-w24) loads in flight, CUDA beside.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gg.sh .gpu/me/gg.yaml $R/
show() {
  python3 -c "
import json,sys
rs=[json.loads(l) for l in open(sys.argv[1]+'/results.jsonl')]
keys=[]
for r in rs:
  k=(r['backend'],str(r['params'].get('max_registers','-')))
  if k not in keys: keys.append(k)
for k in keys:
  print(*k, ' '.join('%s/%s %.4f'%(r['params']['width'],r['params']['window'],(r.get('kernel_ms') or {'median':0})['median']) for r in rs if (r['backend'],str(r['params'].get('max_registers','-')))==k))
" $1
}
for v in w16 w20 w24; do
  if [ $v = w16 ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  timeout 170 $S/dspbench run .gpu/me/gg.yaml --machine h100 --device opencl=NVIDIA --out $R/gg-$v > $R/gg-$v.log 2>&1
  echo "== $v rc=$?"; show $R/gg-$v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
