#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 60 $S/dspbench run .gpu/me/review.yaml --device opencl=NVIDIA --machine h100 --out $R/review > $R/run.log 2>&1
grep -E "verified|MISMATCH|failed|done" $R/run.log | tail -16
DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench selftest --backends cuda --filter fft/stockham > $R/selftest-stockham.txt 2>&1
tail -1 $R/selftest-stockham.txt
rm -rf $R/review/plots $R/review/report.html
tar czf $OUT/results.tar.gz -C $R .
