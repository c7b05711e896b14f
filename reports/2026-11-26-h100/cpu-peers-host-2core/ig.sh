#!/bin/bash
# Session 11, call 76: the launch floor of both GPU backends (a 16-point FFT), then scenarios/cpu-peers.yaml on
# the GPU machine's host CPU (Intel Xeon, AVX-512) pinned to two cores (taskset -c 0,1), pyFFTW from its wheel.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ig.sh .gpu/me/floor.yaml $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 60 $S/dspbench run .gpu/me/floor.yaml --device opencl=NVIDIA --machine h100 --out $R/floor > $R/floor.log 2>&1
echo "floor rc=$?"
python3 -c "
import json
for l in open('$R/floor/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], r['variant'], p, '%.5f'%k['median'], '[%.5f-%.5f]'%(k['ci_low'],k['ci_high']), r['status'])
"
rm -rf /tmp/pyfx; mkdir -p /tmp/pyfx; tar xJf .gpu/me/pyf.tar.xz -C /tmp/pyfx
export PYTHONPATH=/tmp/pyfx/pyf
python3 -c "import pyfftw; print('pyfftw', pyfftw.__version__)"
lscpu > $R/lscpu.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=peers timeout 480 taskset -c 0,1 $S/dspbench run scenarios/cpu-peers.yaml --machine h100-host-2core --out $R/cpu-peers > $R/cpu.log 2>&1
echo "cpu rc=$? in $(( $(date +%s) - T0 )) s"; tail -3 $R/cpu.log
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
