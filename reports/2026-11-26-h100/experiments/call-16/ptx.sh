#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
DSPBENCH_BINARY_DIR=$R timeout 60 $S/build_log box_filter_fast -DDTYPE_U8 -cl-nv-verbose > $R/ocl-u8.log 2>&1
grep -E "binary|Used|stack" $R/ocl-u8.log
which nvcc; ls /usr/local/cuda*/bin/nvcc 2>/dev/null
NVCC=$(which nvcc || ls /usr/local/cuda*/bin/nvcc 2>/dev/null | head -1)
if [ -n "$NVCC" ]; then
  (cd kernels/cuda && $NVCC -ptx -arch=sm_90 -DDTYPE_U8 -o $R/cuda-u8.ptx box_filter_fast.cu 2>&1 | tail -3)
  ls -la $R/cuda-u8.ptx
fi
ls -la $R
tar czf $OUT/results.tar.gz -C $R .
