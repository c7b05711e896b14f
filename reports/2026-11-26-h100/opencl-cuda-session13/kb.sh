#!/bin/bash
# Session 13's final run, second call (call 119): the same binary's selftest of both GPU backends (CUDA, NVIDIA's
# OpenCL and the machine's PoCL) and the CUDA test binary's box and stockham tests.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kb.sh $R/
timeout 200 $S/cuda_tests box > $R/cuda-tests-box.txt 2>&1; echo "cuda tests box rc=$?"; grep -E "test result" $R/cuda-tests-box.txt
timeout 100 $S/cuda_tests stockham > $R/cuda-tests-stockham.txt 2>&1; echo "cuda tests stockham rc=$?"; grep -E "test result" $R/cuda-tests-stockham.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 280 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
tar czf $OUT/results.tar.gz -C $R .
