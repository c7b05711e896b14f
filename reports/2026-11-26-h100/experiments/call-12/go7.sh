#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
DSPBENCH_REQUIRE=cuda timeout 150 $S/cuda_tests --test-threads=1 stockham one_point > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep -E "^test |test result" $R/cuda-tests.txt
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/fold.yaml --machine h100 --out $R/fold > $R/fold.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror" $R/fold.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-130
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
