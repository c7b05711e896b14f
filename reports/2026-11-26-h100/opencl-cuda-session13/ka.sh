#!/bin/bash
# Session 13's final run (call 118): scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA (cuFFT beside), then the
# OpenCL test binary's box tests on the machine's PoCL twice (call 117 saw PoCL 5.0 abort once) and once on one thread.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ka.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 360 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
for k in 1 2; do
  timeout 60 $S/opencl_tests box > $R/opencl-tests-$k.txt 2>&1; echo "opencl tests $k rc=$?"; grep -E "test result" $R/opencl-tests-$k.txt; grep -i "assert" $R/opencl-tests-$k.txt | head -2
done
timeout 90 $S/opencl_tests box --test-threads=1 > $R/opencl-tests-1thread.txt 2>&1; echo "opencl tests 1 thread rc=$?"; grep -E "test result" $R/opencl-tests-1thread.txt; grep -i "assert" $R/opencl-tests-1thread.txt | head -2
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
