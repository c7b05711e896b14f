#!/bin/bash
# Session 13, call 114: NVIDIA's OpenCL build of the f32 box filter (build_log, -cl-nv-verbose, PTX kept) with 16 /
# 24 / 32 loads in flight a walker, register caps 64 and 128.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bl.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gh.sh $R/
for w in 16 24 32; do for cap in 64 128; do
  mkdir -p $R/bin-w$w-c$cap
  DSPBENCH_KERNELS=.gpu/me/k-w$w DSPBENCH_BINARY_DIR=$R/bin-w$w-c$cap timeout 120 $S/build_log box_filter_fast -DDTYPE_F32 -DNV_PTX -DREGISTER_CAP=$cap -cl-nv-maxrregcount=$cap -cl-nv-verbose > $R/log-w$w-c$cap.txt 2>&1
  echo "== w$w cap$cap rc=$?"; grep -A3 "box_filter_fast_fused'" $R/log-w$w-c$cap.txt | grep -E "Used|spill" | head -3
done; done
for f in $R/bin-*/*.bin; do xz -9 $f; done
tar czf $OUT/results.tar.gz -C $R .
