#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/ptx2.sh $R/
DSPBENCH_BINARY_DIR=$R $S/build_log conv1d_fft_fused -DREGISTERS=1 -DLOG2_SIZE=13 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/ocl-log.txt 2>&1
ls $R
P=/usr/local/cuda/bin/nvcc
$P --version | tail -2
$P -ptx -arch=sm_90 -DREGISTERS=1 -DLOG2_SIZE=13 -I kernels/cuda -o $R/cuda.ptx kernels/cuda/conv1d_fft_fused.cu > $R/nvcc.txt 2>&1; echo "nvcc rc=$?"; head -20 $R/nvcc.txt
$P -cubin -arch=sm_90 -Xptxas -v -DREGISTERS=1 -DLOG2_SIZE=13 -I kernels/cuda -o $R/cuda.cubin kernels/cuda/conv1d_fft_fused.cu 2>&1 | tail -4
for f in $R/*.bin $R/cuda.ptx; do [ -f $f ] || continue; echo "== $f"; grep -oE "^\s+(ld|st|fma|mul|add|sub|shfl|bar|cvt|mad|setp|selp|and|or|shl|shr|mov)[.a-z0-9]*" $f | sed 's/^\s*//' | sort | uniq -c | sort -rn | head -25; grep -cE "^\s+[a-z]" $f; done
tar czf $OUT/results.tar.gz -C $R .
