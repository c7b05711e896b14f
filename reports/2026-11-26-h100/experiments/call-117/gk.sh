#!/bin/bash
# Session 13, call 117: OpenCL's f32 walk with a batch's loads written out first (cap 128), against k-cur (the loop
# of 16); CUDA beside; NVIDIA's PTX of it through ptxas / cuobjdump (loads before the first add); OpenCL box tests.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gk.sh .gpu/me/gk.yaml $R/
timeout 200 $S/opencl_tests box > $R/opencl-tests.txt 2>&1; echo "opencl tests rc=$?"; grep -E "test result" $R/opencl-tests.txt; grep -A20 panicked $R/opencl-tests.txt | head -30
mkdir -p $R/ptx
DSPBENCH_BINARY_DIR=$R/ptx timeout 120 $S/build_log box_filter_fast -DDTYPE_F32 -DNV_PTX -DREGISTER_CAP=128 -cl-nv-maxrregcount=128 -cl-nv-verbose > $R/build-log.txt 2>&1
grep -A2 "box_filter_fast_fused'" $R/build-log.txt | grep -E "Used|spill"
P=$(ls $R/ptx/*.bin | tail -1)
python3 -c "
import sys
t=open(sys.argv[1],'rb').read().replace(b'\0',b'').decode('latin1')
i=t.find('.metadata_section'); t=t[:i] if i>=0 else t
open('/tmp/k.ptx','w').write(t)
" $P
/usr/local/cuda/bin/ptxas -arch=sm_90 -maxrregcount=128 /tmp/k.ptx -o /tmp/k.cubin > $R/ptxas.txt 2>&1; echo "ptxas rc=$?"
/usr/local/cuda/bin/cuobjdump -sass -fun box_filter_fast_fused /tmp/k.cubin > $R/sass.txt 2>&1
python3 - $R/sass.txt <<'PY'
import sys,re
ops=[]
for l in open(sys.argv[1]):
    m=re.match(r'\s*/\*[0-9a-f]{4}\*/\s*(.*?);',l)
    if m: ops.append(m.group(1).strip())
runs=[];run=0
for o in ops:
    op=o.split()[1] if o.startswith('@') else (o.split()[0] if o else '')
    if op.startswith('LDG'): run+=1
    elif op.startswith('FADD'):
        if run: runs.append(run)
        run=0
print('sass instructions',len(ops),'LDG runs before an FADD',sorted(runs,reverse=True)[:8])
PY
xz -9 $R/sass.txt; rm -rf $R/ptx
for v in cur new cur2 new2; do
  if [ ${v%2} = cur ]; then export DSPBENCH_KERNELS=.gpu/me/k-cur; else unset DSPBENCH_KERNELS; fi
  timeout 120 $S/dspbench run .gpu/me/gk.yaml --machine h100 --device opencl=NVIDIA --out $R/gk-$v > $R/gk-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json,sys
rs=[json.loads(l) for l in open('$R/gk-'+sys.argv[1]+'/results.jsonl')]
keys=[]
for r in rs:
  k=(r['backend'],str(r['params'].get('max_registers','-')))
  if k not in keys: keys.append(k)
for k in keys:
  print(*k, ' '.join('%s/%s %.4f'%(r['params']['width'],r['params']['window'],(r.get('kernel_ms') or {'median':0})['median']) for r in rs if (r['backend'],str(r['params'].get('max_registers','-')))==k))
" $v
done
unset DSPBENCH_KERNELS
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
