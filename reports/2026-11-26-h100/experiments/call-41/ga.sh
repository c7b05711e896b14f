#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/ga.yaml .gpu/me/ga.sh $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run .gpu/me/ga.yaml --device opencl=NVIDIA --machine h100 --out $R/ga > $R/ga.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror\|refused" $R/ga.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-170
timeout 200 $S/dspbench selftest --backends cuda --filter box-filter/fast > $R/selftest-box.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest-box.txt; grep -i "fail" $R/selftest-*.txt | grep -v " 0 failed" | head -10
/usr/local/cuda/bin/nvcc -cubin -arch=sm_90 -Xptxas -v -DDTYPE_F32 -I kernels/cuda -o $R/box.cubin kernels/cuda/box_filter_fast.cu > $R/ptxas.txt 2>&1; grep -A1 "box_filter_fast_fused" $R/ptxas.txt | grep -i "used\|spill\|Compiling" | cut -c1-150
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
