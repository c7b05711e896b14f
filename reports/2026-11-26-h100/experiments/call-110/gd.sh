#!/bin/bash
# Session 13, call 110: f32 box filter run starts shared, threadIdx read where used: SASS (nvcc) loads in flight,
# CUDA box tests, then k-old / k-new1 / default interleaved twice.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gd.sh .gpu/me/gd.yaml $R/
NVCC=$(ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
for v in old new1 tid; do
  if [ $v = tid ]; then D=kernels/cuda; else D=.gpu/me/k-$v/cuda; fi
  $NVCC -cubin -arch=sm_90 -O3 -DDTYPE_F32 -I$D $D/box_filter_fast.cu -o /tmp/bf-$v.cubin 2> $R/nvcc-$v.txt
  /usr/local/cuda/bin/cuobjdump -sass /tmp/bf-$v.cubin > /tmp/bf-$v.sass 2>&1
  python3 - "$v" /tmp/bf-$v.sass <<'PY'
import sys,re
v,f=sys.argv[1],sys.argv[2]
lines=open(f).read().split('\n')
# the fused kernel's body
start=[i for i,l in enumerate(lines) if 'Function : box_filter_fast_fused' in l]
if not start: print(v,'no fused function'); sys.exit()
body=lines[start[0]:]
end=[i for i,l in enumerate(body[1:]) if 'Function :' in l]
body=body[:end[0]+1] if end else body
ops=[re.sub(r'^\s*/\*[0-9a-f]+\*/\s*','',l).strip() for l in body if re.match(r'\s*/\*[0-9a-f]{4}\*/',l)]
# longest run of LDG before an FADD
best=0;run=0
for o in ops:
    if o.startswith('LDG') or ' LDG' in o[:12]: run+=1
    elif o.startswith('FADD'): best=max(best,run); run=0
print(v,'instructions',len(ops),'most LDG before an FADD',best,'LDL/STL',sum(1 for o in ops if 'LDL' in o or 'STL' in o))
PY
done
timeout 200 $S/cuda_tests box > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "test result" $R/cuda-tests.txt; grep -A20 panicked $R/cuda-tests.txt | head -30
for v in old new1 tid old2 new12 tid2; do
  b=${v%2}; [ $v = new12 ] && b=new1
  if [ $b = tid ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$b; fi
  timeout 100 $S/dspbench run .gpu/me/gd.yaml --machine h100 --out $R/gd-$v > $R/gd-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json,sys
print(' '.join('%s/%s %.4f'%(json.loads(l)['params']['width'],json.loads(l)['params']['window'],(json.loads(l).get('kernel_ms') or {'median':0})['median']) for l in open('$R/gd-'+sys.argv[1]+'/results.jsonl')))
" $v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
