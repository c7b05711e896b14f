#!/bin/bash
# Session 11, call 83: after the review's refactor of OpenCL's launch arguments and upload (one input check for
# buffers and by-value arguments): the OpenCL test binary's conv2d and contract tests (NVIDIA and PoCL 5.0) and
# the selftest of the OpenCL backend, every workload.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/im.sh $R/
DSPBENCH_REQUIRE=opencl timeout 150 $S/opencl_tests --test-threads=1 conv2d > $R/opencl-tests-conv2d.txt 2>&1
echo "opencl conv2d tests rc=$?"; grep "test result\|panicked" $R/opencl-tests-conv2d.txt | head -3
DSPBENCH_REQUIRE=opencl timeout 100 $S/opencl_tests --test-threads=1 contract > $R/opencl-tests-contract.txt 2>&1
echo "opencl contract tests rc=$?"; grep "test result\|panicked" $R/opencl-tests-contract.txt | head -3
T0=$(date +%s)
DSPBENCH_REQUIRE=opencl timeout 300 $S/dspbench selftest --backends opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5
tar czf $OUT/results.tar.gz -C $R .
