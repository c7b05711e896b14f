#!/bin/bash
# Session 9's final checks (after go.sh): the CUDA test binary's stockham and mixed-radix one-point tests, then
# the selftest of both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
DSPBENCH_REQUIRE=cuda timeout 90 $S/cuda_tests --test-threads=1 stockham one_point > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result" $R/cuda-tests.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 450 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head
tar czf $OUT/results.tar.gz -C $R .
