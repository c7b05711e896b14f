#!/bin/bash
# Session 8's final run: scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA, then the CUDA test binary's
# stockham and mixed-radix one-point tests, then the selftest of both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/go.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 280 $S/dspbench run .gpu/me/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests --test-threads=1 stockham one_point > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result" $R/cuda-tests.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 240 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
