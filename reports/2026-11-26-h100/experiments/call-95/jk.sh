#!/bin/bash
# Session 12, call 95: OpenCL's tensor-core box filter with accumulators as vectors and mma as a macro (no
# pointers into registers) against the first twin (kA), build logs of both; then the host CPU: the measured FMA
# peak and scenarios/cpu-peers.yaml pinned to two cores (the new conv1d direct).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/jk.sh .gpu/me/box-mma3.yaml $R/
for v in B A; do
  if [ $v = A ]; then export DSPBENCH_KERNELS=$PWD/.gpu/me/kA; else unset DSPBENCH_KERNELS; fi
  timeout 60 $S/build_log box_filter_fast_mma -DDTYPE_U8 -DNV_PTX -DMMA_G=2 -DMMA_KH=1 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/build-log-$v.txt 2>&1
  echo "== $v build"; grep -i "registers\|spill\|bytes stack\|lmem\|error" $R/build-log-$v.txt | head -6
  DSPBENCH_REQUIRE=cuda,opencl timeout 120 $S/dspbench run .gpu/me/box-mma3.yaml --device opencl=NVIDIA --machine h100 --out $R/box-mma3-$v > $R/run-$v.log 2>&1
  echo "run $v rc=$?"; tail -1 $R/run-$v.log
  python3 -c "
import json
for l in open('$R/box-mma3-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], p['width'], p['window'], p.get('form','default'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('entries', e.get('path','')))
" | sort -k2,2n -k3,3n -k4 -k1
done
unset DSPBENCH_KERNELS
rm -rf /tmp/pyfx; mkdir -p /tmp/pyfx; tar xJf .gpu/me/pyf.tar.xz -C /tmp/pyfx
export PYTHONPATH=/tmp/pyfx/pyf
python3 -c "import pyfftw; print('pyfftw', pyfftw.__version__)"
lscpu > $R/lscpu.txt
taskset -c 0,1 $S/fma_peak > $R/fma-peak.txt 2>&1; cat $R/fma-peak.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=peers timeout 420 taskset -c 0,1 $S/dspbench run scenarios/cpu-peers.yaml --machine h100-host-2core --out $R/cpu-peers > $R/cpu.log 2>&1
echo "cpu rc=$? in $(( $(date +%s) - T0 )) s"; tail -3 $R/cpu.log
grep -E "conv1d direct simd" $R/cpu.log | tail -3
taskset -c 0,1 $S/fma_peak > $R/fma-peak-after.txt 2>&1; cat $R/fma-peak-after.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
