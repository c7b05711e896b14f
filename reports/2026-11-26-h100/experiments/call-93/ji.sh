#!/bin/bash
# Session 12, call 93: the u8 tensor-core form as both GPU backends' default (m <= 33, widths a multiple of 16),
# its OpenCL twin: CUDA and OpenCL box tests (NVIDIA, then PoCL 5.0 alone), the box report cells with the forms
# replaced in the same rounds, and the box-filter selftest of both backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/ji.sh .gpu/me/box-mma2.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=1 box_filter > $R/opencl-tests.txt 2>&1
echo "opencl tests (default ICDs) rc=$?"; grep "test result\|panicked" $R/opencl-tests.txt | head -4 | cut -c1-2500
mkdir -p /tmp/pocl-only && cp /etc/OpenCL/vendors/*pocl* /tmp/pocl-only/ 2>/dev/null; ls /etc/OpenCL/vendors/ > $R/icds.txt
OCL_ICD_VENDORS=/tmp/pocl-only DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=1 box_filter > $R/opencl-tests-pocl.txt 2>&1
echo "opencl tests (PoCL only) rc=$?"; grep "test result\|panicked" $R/opencl-tests-pocl.txt | head -4 | cut -c1-1500
DSPBENCH_REQUIRE=cuda,opencl timeout 240 $S/dspbench run .gpu/me/box-mma2.yaml --device opencl=NVIDIA --machine h100 --out $R/box-mma2 > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log; grep -i "error\|fail" $R/run.log | head -5 | cut -c1-1500
python3 -c "
import json
for l in open('$R/box-mma2/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], p['dtype'], p['width'], p['window'], p.get('form','default'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('entries', e.get('path','')), e.get('registers',''), e.get('local_mem_bytes',''))
" | sort -k2,2 -k3,3n -k4,4n -k5 -k1
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
