#!/bin/bash
# Session 44, call 361: HEAD's binary (373b5eb): the whole selftest on CUDA and NVIDIA's OpenCL.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-head.tar.xz -C $S || exit 1
R=/tmp/r361; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k361.sh $R/
T0=$(date +%s)
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=cuda,opencl timeout 560 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? at $(( $(date +%s) - T0 )) s"; tail -6 $R/selftest.txt | cut -c1-300; grep -iE "fail|mismatch" $R/selftest.txt | head -5 | cut -c1-300
xz -9 $R/selftest.txt; tar -cJf $OUT/r361.tar.xz -C /tmp r361; ls -la $OUT
