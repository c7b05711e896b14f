#!/bin/bash
# Session 11, call 81: CUDA fft stockham 2^15 folded, the exchange whole by default now, cuFFT and NVIDIA's
# OpenCL beside; the CUDA test binary's fft stockham tests and the selftest of fft/stockham on both backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ik.sh .gpu/me/fold2.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 150 $S/cuda_tests --test-threads=1 stockham > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-400
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/fold2.yaml --device opencl=NVIDIA --machine h100 --out $R/fold2 > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log
python3 -c "
import json
for l in open('$R/fold2/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], r['variant'][:8], p['size'], p['batch'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('shared_mem_bytes',''))
" | sort -k3,3n -k4,4n -k1,1
DSPBENCH_REQUIRE=cuda,opencl timeout 120 $S/dspbench selftest --backends cuda,opencl --filter fft/stockham > $R/selftest.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
