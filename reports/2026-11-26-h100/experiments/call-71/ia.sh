#!/bin/bash
# Session 11, call 71: OpenCL fft stockham 16384 points in one group (index halves) and 32768 folded over two,
# against the old fold / four-step, CUDA and cuFFT; register counts; the OpenCL test binary's stockham tests
# (NVIDIA and PoCL 5.0); the fft selftest of both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ia.sh .gpu/me/fft16k.yaml $R/
for h in 0 1; do
  timeout 60 $S/build_log fft_stockham -DREGISTERS=1 -DLOG2_SIZE=14 -DCOLUMNS=1 -DPOINTS_PER_THREAD=16 -DSPLIT=1 -DFOLD=$h -DHALVES=1 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/build-14-fold$h.txt 2>&1
  grep -i "registers\|spill\|stack" $R/build-14-fold$h.txt | head -4 | cut -c1-200
done
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/fft16k.yaml --device opencl=NVIDIA --machine h100 --out $R/fft16k > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/fft16k/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], r['variant'][:8], p.get('size'), p.get('batch'), p.get('fold','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('fold',''), e.get('exchange',''))
"
DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=1 stockham > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test result\|panicked\|Assertion" $R/opencl-tests.txt | head -4 | cut -c1-400
DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench selftest --backends cuda,opencl --filter fft/ > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt; grep -i "error\|fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
