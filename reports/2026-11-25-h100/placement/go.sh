#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
DSPBENCH_REQUIRE=cuda timeout 300 $S/dspbench run .gpu/me/mixed-sweep2.yaml --machine h100 --out $R/sweep3 > $R/run.log 2>&1
tail -2 $R/run.log
$S/dspbench_cuda-533d20f1da02b67e --test-threads=1 > $R/cuda-tests.txt 2>&1
grep "test result" $R/cuda-tests.txt; grep -E "FAILED|panicked" $R/cuda-tests.txt | head -5
tar czf $OUT/results.tar.gz -C $R .
