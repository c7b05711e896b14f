#!/bin/bash
# Session 10's final checks and box filter report (second: the OpenCL ring form added): the OpenCL and CUDA
# test binaries' box tests (both u8 forms forced on edge-rich images; OpenCL on NVIDIA and the machine's PoCL),
# the box-filter selftest of both GPU backends, then box-ring.yaml on CUDA and NVIDIA's OpenCL.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/go.sh .gpu/me/box-ring.yaml $R/
timeout 60 $S/build_log box_filter_fast -DDTYPE_U8 -DNV_PTX -cl-nv-verbose > $R/build-u8.txt 2>&1
grep -A3 "box_filter_fast_ring_u8' for" $R/build-u8.txt | head -4 | cut -c1-200
DSPBENCH_REQUIRE=opencl timeout 150 $S/opencl_tests --test-threads=1 box_filter_fast > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test result\|panicked\|Assertion" $R/opencl-tests.txt | head -4 | cut -c1-400
DSPBENCH_REQUIRE=cuda timeout 90 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -3 | cut -c1-600
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "error\|fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 250 $S/dspbench run .gpu/me/box-ring.yaml --device opencl=NVIDIA --machine h100 --out $R/box-ring > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/box-ring/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], p['width'], p['window'], p['dtype'], p.get('form','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], r['exec'].get('entries', r['exec'].get('path','')))
"
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
