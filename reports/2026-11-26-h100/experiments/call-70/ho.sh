#!/bin/bash
# The OpenCL ring form on NVIDIA, second try (ring 16-byte aligned for cp.async; fixed-trip loops for PoCL):
# PTX around its cp.async, its time against the word form and CUDA, then the OpenCL test binary's box tests.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/ho.sh .gpu/me/ho.yaml $R/
mkdir -p $R/bin
DSPBENCH_BINARY_DIR=$R/bin timeout 60 $S/build_log box_filter_fast -DDTYPE_U8 -DNV_PTX -cl-nv-verbose > $R/build-u8.txt 2>&1
echo "build_log rc=$?"; grep -A3 "box_filter_fast_ring_u8' for" $R/build-u8.txt | head -4 | cut -c1-200
P=$(ls $R/bin/* 2>/dev/null | tail -1); echo "ptx: $P"; grep -n -B4 "cp.async.cg" $P | head -14 | cut -c1-160
DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench run .gpu/me/ho.yaml --device opencl=NVIDIA --machine h100 --out $R/ho > $R/ho.log 2>&1
echo "run rc=$?"; grep -i "error\|mismatch" $R/ho.log | head -3 | cut -c1-300
python3 -c "
import json
for l in open('$R/ho/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], p['width'], p['window'], p.get('form','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], r['exec'].get('path', r['exec'].get('entries','')), r['exec'].get('strips',''))
"
DSPBENCH_REQUIRE=opencl timeout 150 $S/opencl_tests --test-threads=1 box_filter_fast > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test \|test result\|panicked\|Assertion" $R/opencl-tests.txt | head -8 | cut -c1-400
rm -rf $R/*/plots $R/*/report.html $R/bin/*-0.bin
tar czf $OUT/results.tar.gz -C $R .
