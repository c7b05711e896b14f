#!/bin/bash
# Session 12, call 98: the selftest of both GPU backends (CUDA, NVIDIA's OpenCL and the machine's PoCL 5.0) with the
# final run's binary, again: call 97's stopped at its 200 s limit (the host ran slow).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/jn.sh $R/


T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 540 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
