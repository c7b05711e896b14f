#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/ptx.sh $R/
for opt in "" "-cl-mad-enable"; do
  d=$R/ptx${opt:+-mad}; mkdir -p $d
  DSPBENCH_BINARY_DIR=$d $S/build_log conv1d_fft_fused -DREGISTERS=1 -DLOG2_SIZE=13 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose $opt > $d/log.txt 2>&1
  DSPBENCH_BINARY_DIR=$d $S/build_log fft_stockham -DREGISTERS=1 -DLOG2_SIZE=13 -DCOLUMNS=1 -DPOINTS_PER_THREAD=16 -DSPLIT=1 -DFOLD=0 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose $opt >> $d/log.txt 2>&1
  DSPBENCH_BINARY_DIR=$d $S/build_log conv2d_fast -DDTYPE_F32 -DRADIUS=3 -cl-nv-verbose $opt >> $d/log.txt 2>&1
  DSPBENCH_BINARY_DIR=$d $S/build_log box_filter_fast -DDTYPE_U8 -DNV_PTX -cl-nv-verbose $opt >> $d/log.txt 2>&1
  for f in $d/*.bin; do head -c 300000 $f | grep -q "\.version" || continue; echo "$opt $(basename $f): fma $(grep -c 'fma.rn.f32' $f) mul $(grep -c 'mul.rn.f32\|mul.f32' $f) add $(grep -c 'add.f32\|add.rn.f32\|sub.f32\|sub.rn.f32' $f)"; done
  grep -h "Used\|spill" $d/log.txt
done
tar czf $OUT/results.tar.gz -C $R .
