#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/pow2.yaml --machine h100 --out $R/pow2 > $R/pow2.log 2>&1
tail -1 $R/pow2.log
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc $?"; tail -3 $R/selftest.txt
rm -f $R/pow2/report.html; rm -rf $R/pow2/plots
tar czf $OUT/results.tar.gz -C $R .
