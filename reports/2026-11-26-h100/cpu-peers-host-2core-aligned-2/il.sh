#!/bin/bash
# Session 11, call 82: scenarios/cpu-peers.yaml a second time on the GPU machine's host CPU (Intel Xeon, AVX-512) pinned to two
# cores (taskset -c 0,1), pyFFTW from its wheel, as in call 76, now with the FFTs' buffers and every CPU kernel's
# output on a cache line.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/il.sh $R/
rm -rf /tmp/pyfx; mkdir -p /tmp/pyfx; tar xJf .gpu/me/pyf.tar.xz -C /tmp/pyfx
export PYTHONPATH=/tmp/pyfx/pyf
python3 -c "import pyfftw; print('pyfftw', pyfftw.__version__)"
lscpu > $R/lscpu.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=peers timeout 480 taskset -c 0,1 $S/dspbench run scenarios/cpu-peers.yaml --machine h100-host-2core --out $R/cpu-peers > $R/cpu.log 2>&1
echo "cpu rc=$? in $(( $(date +%s) - T0 )) s"; tail -3 $R/cpu.log
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
