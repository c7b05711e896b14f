#!/bin/bash
# Session 13, call 116: the build: CUDA and OpenCL box tests, f32 box cells (gj.yaml); then NVIDIA's OpenCL PTX of the f32 box filter (call-114, cap 128, 16 or 32 loads a walker)
# through ptxas and cuobjdump: how many loads the walk keeps in flight.
cd "$(dirname "$0")/../.." || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gi.sh .gpu/me/gj.yaml $R/
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
timeout 200 $S/cuda_tests box > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "test result" $R/cuda-tests.txt; grep -A20 panicked $R/cuda-tests.txt | head -30
timeout 200 $S/opencl_tests box > $R/opencl-tests.txt 2>&1; echo "opencl tests rc=$?"; grep -E "test result" $R/opencl-tests.txt; grep -A20 panicked $R/opencl-tests.txt | head -30
timeout 120 $S/dspbench run .gpu/me/gj.yaml --machine h100 --device opencl=NVIDIA --out $R/gj > $R/gj.log 2>&1; echo "run rc=$?"
python3 -c "
import json
rs=[json.loads(l) for l in open('$R/gj/results.jsonl')]
for b in ('cuda','opencl'):
  print(b, ' '.join('%s/%s %.4f %s'%(r['params']['width'],r['params']['window'],(r.get('kernel_ms') or {'median':0})['median'],r['status']) for r in rs if r['backend']==b))
"
rm -rf $R/gj/plots $R/gj/report.html
B=/usr/local/cuda/bin
for w in 16 32; do
  xz -dc .gpu/me/ptx/w$w.ptx.xz > /tmp/w$w.ptx
  xz -dc .gpu/me/ptx/w$w.ptx.xz > /tmp/w$w.ptx
  $B/ptxas -arch=sm_90 -maxrregcount=128 -v /tmp/w$w.ptx -o /tmp/w$w.cubin > $R/ptxas-w$w.txt 2>&1; echo "ptxas w$w rc=$?"
  $B/cuobjdump -sass -fun box_filter_fast_fused /tmp/w$w.cubin > $R/sass-w$w.txt 2>&1
  python3 - $w $R/sass-w$w.txt <<'PY'
import sys,re
w,f=sys.argv[1],sys.argv[2]
ops=[]
for l in open(f):
    m=re.match(r'\s*/\*[0-9a-f]{4}\*/\s*(.*?);',l)
    if m: ops.append(m.group(1).strip())
runs=[];run=0
for o in ops:
    op=o.split()[1] if o.startswith('@') else (o.split()[0] if o else '')
    if op.startswith('LDG'): run+=1
    elif op.startswith('FADD'):
        if run: runs.append(run)
        run=0
print('w'+w,'sass instructions',len(ops),'LDG runs before an FADD',sorted(runs,reverse=True)[:8])
PY
done
xz -9 $R/sass-*.txt
tar czf $OUT/results.tar.gz -C $R .
