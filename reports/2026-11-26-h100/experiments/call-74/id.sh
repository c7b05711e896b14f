#!/bin/bash
# Session 11, call 74: OpenCL conv1d `fft-fused` at 16384 points (index halves), CUDA beside; the OpenCL test
# binary's conv1d tests (NVIDIA and PoCL 5.0); the conv1d fft-fused selftest of both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/id.sh .gpu/me/conv1d.yaml $R/
timeout 60 $S/build_log conv1d_fft_fused -DREGISTERS=1 -DLOG2_SIZE=14 -DPOINTS_PER_THREAD=16 -DHALVES=1 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/build-14.txt 2>&1
grep -i 'Used\|spill' $R/build-14.txt | head -2 | cut -c1-200
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/conv1d.yaml --device opencl=NVIDIA --machine h100 --out $R/conv1d > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/conv1d/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], p['m'], p.get('fft_len','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('fft_len',''), r.get('reason','')[:150])
" | sort -k2,2n -k3,3 -k1,1
DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=1 conv1d > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test result\|panicked\|Assertion" $R/opencl-tests.txt | head -4 | cut -c1-400
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter conv1d/fft-fused > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "error\|fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
