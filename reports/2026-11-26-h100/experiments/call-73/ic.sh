#!/bin/bash
# Session 11, call 73: OpenCL conv2d `fast` registers staging with the taps by value against the tile, CUDA
# beside; register counts; the OpenCL test binary's conv2d tests (NVIDIA and PoCL 5.0).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ic.sh .gpu/me/conv2d.yaml $R/
for t in U8 F32; do for r in 3 4; do
  timeout 60 $S/build_log conv2d_fast_registers -DDTYPE_$t -DRADIUS=$r -DROWS=4 -DBY=4 -DNV_SHUFFLE -cl-nv-verbose > $R/build-$t-$r.txt 2>&1
  echo "$t R=$r: $(grep -i 'Used\|spill' $R/build-$t-$r.txt | head -2 | tr '\n' ' ' | cut -c1-220)"
done; done
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/conv2d.yaml --device opencl=NVIDIA --machine h100 --out $R/conv2d > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/conv2d/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], p['dtype'], p['radius'], p.get('staging','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('staging',''))
" | sort -k2,2 -k3,3n -k1,1
DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=1 conv2d > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test result\|panicked\|Assertion" $R/opencl-tests.txt | head -4 | cut -c1-400
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
