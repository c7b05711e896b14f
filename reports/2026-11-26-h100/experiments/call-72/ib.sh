#!/bin/bash
# Session 11, call 72: OpenCL fft stockham's fold against one group (16384) and the four-step (32768) in
# batches of 2 .. 128, CUDA and cuFFT beside.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ib.sh .gpu/me/fftsmall.yaml $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/fftsmall.yaml --device opencl=NVIDIA --machine h100 --out $R/fftsmall > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/fftsmall/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], r['variant'][:8], p.get('size'), p.get('batch'), p.get('fold','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('fold',''), e.get('passes',''))
" | sort -k3,3n -k4,4n
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
