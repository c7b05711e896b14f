#!/bin/bash
# Session 47, call 373: 812f7af's binaries: the OpenCL test binary whole on NVIDIA's platform (one thread), then the
# whole selftest on CUDA and NVIDIA's OpenCL.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s46.tar.xz -C $S || exit 1
R=/tmp/r373; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k373.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=opencl DSPBENCH_OPENCL_PLATFORM=NVIDIA timeout 215 $S/opencl-tests --test-threads 1 > $R/opencl-tests.txt 2>&1; echo "opencl-tests rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "test result|FAILED|panicked" $R/opencl-tests.txt | head
LEFT=$(( 570 - ($(date +%s) - T0) )); echo "selftest gets $LEFT s"
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=cuda,opencl timeout $LEFT $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? at $(( $(date +%s) - T0 )) s"; tail -3 $R/selftest.txt | cut -c1-300; grep -iE "fail|mismatch" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-300
tar -cJf $OUT/r373.tar.xz -C /tmp r373; ls -la $OUT
