#!/bin/bash
# conv1d fft-fused with 32-bit indices in both twins: N = 2^24, M = 1024 / 2048 / 4096 and ragged sizes, then
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/fn.yaml .gpu/me/fn.sh $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/fn.yaml --device opencl=NVIDIA --machine h100 --out $R/fn > $R/fn.log 2>&1
echo "rc=$?"; grep "pass 4 of 4\|skipped\|rror\|FAIL" $R/fn.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-150
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
