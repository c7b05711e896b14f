#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
DSPBENCH_REQUIRE=opencl timeout 100 $S/dspbench selftest --backends opencl --filter conv2d/fast > $R/selftest-box.txt 2>&1
echo "selftest rc=$?"; tail -3 $R/selftest-box.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/c5.yaml --device opencl=NVIDIA --machine h100 --out $R/c5 > $R/c5.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror" $R/c5.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-140
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
