#!/bin/bash
# The OpenCL ring form on NVIDIA: its build log (registers, local memory, the inline cp.async accepted),
# the OpenCL test binary's ring-form test (NVIDIA and PoCL), and its time against the word form and CUDA.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hn.sh .gpu/me/hn.yaml $R/
timeout 60 $S/build_log box_filter_fast -DDTYPE_U8 -DNV_PTX -cl-nv-verbose > $R/build-u8.txt 2>&1
echo "build_log rc=$?"; grep -i "ring\|error\|Used" $R/build-u8.txt | grep -v pocl | head -12 | cut -c1-300
DSPBENCH_REQUIRE=opencl timeout 120 $S/opencl_tests --test-threads=1 box_filter_fast > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test result\|panicked\|FAIL\|failed" $R/opencl-tests.txt | head -5 | cut -c1-600
DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench run .gpu/me/hn.yaml --device opencl=NVIDIA --machine h100 --out $R/hn > $R/hn.log 2>&1
echo "run rc=$?"; grep -i "error\|mismatch" $R/hn.log | head -3 | cut -c1-300
python3 -c "
import json
for l in open('$R/hn/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(r['backend'][:6], p['width'], p['window'], p.get('form','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], r['exec'].get('path', r['exec'].get('entries','')), r['exec'].get('strips',''))
"
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
