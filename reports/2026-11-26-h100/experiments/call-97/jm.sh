#!/bin/bash
# Session 12's final run (call 97): the CUDA test binary's box tests with the final kernels, scenarios/opencl-cuda.yaml
# on NVIDIA's OpenCL and CUDA (cuFFT beside), then the selftest of both GPU backends (CUDA, NVIDIA's OpenCL and the
# machine's PoCL 5.0), with the same binary.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/jm.sh $R/
DSPBENCH_REQUIRE=cuda timeout 100 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -3 | cut -c1-600
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
