#!/bin/bash
# Final checks of the session's tree on the GPU machine, then gpu-showcase twice back to back.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
T=$(ls $S/dspbench_cuda-* | head -1)
timeout 110 $T --test-threads=1 fft_mixed box > $R/cuda-tests.txt 2>&1
grep "test result" $R/cuda-tests.txt; grep -E "FAILED|panicked" $R/cuda-tests.txt | head -3
DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench selftest --backends cuda,opencl --filter fft/ > $R/selftest-fft.txt 2>&1
tail -1 $R/selftest-fft.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter/ > $R/selftest-box.txt 2>&1
tail -1 $R/selftest-box.txt
for k in 1 2; do
  DSPBENCH_REQUIRE=cuda,peers timeout 100 $S/dspbench run scenarios/gpu-showcase.yaml --machine h100 --out $R/showcase-$k > $R/showcase-$k.log 2>&1
  tail -1 $R/showcase-$k.log
done
rm -rf $R/showcase-*/plots $R/showcase-*/report.html
tar czf $OUT/results.tar.gz -C $R .
