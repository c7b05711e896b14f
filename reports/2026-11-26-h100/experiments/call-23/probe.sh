#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
B=$S/build_log
REG="-DREGISTERS=1 -DCOLUMNS=1 -DSPLIT=1"
probe() { name=$1; shift; echo "### $name: $*" >> $R/probe.txt; $B "$@" >> $R/probe.txt 2>&1; }
probe reg8192-cap64 fft_stockham $REG -DLOG2_SIZE=13 -DPOINTS_PER_THREAD=16 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose
probe reg8192-cap32 fft_stockham $REG -DLOG2_SIZE=13 -DPOINTS_PER_THREAD=16 -DREGISTER_CAP=32 -cl-nv-maxrregcount=32 -cl-nv-verbose
probe reg8192-reqd fft_stockham $REG -DLOG2_SIZE=13 -DPOINTS_PER_THREAD=16 -cl-nv-verbose
probe reg8192-cap64-cl3 fft_stockham $REG -DLOG2_SIZE=13 -DPOINTS_PER_THREAD=16 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose -cl-std=CL3.0
probe reg4096-ppt8-cap64 fft_stockham $REG -DLOG2_SIZE=12 -DPOINTS_PER_THREAD=8 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose
probe reg1024-ppt16-cap64 fft_stockham $REG -DLOG2_SIZE=10 -DPOINTS_PER_THREAD=16 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose
probe reg1024-nosplit fft_stockham -DREGISTERS=1 -DCOLUMNS=1 -DSPLIT=0 -DLOG2_SIZE=10 -DPOINTS_PER_THREAD=16 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose
probe shared4096 fft_stockham -DLOG2_SIZE=12 -DCOLUMNS=1 -DPOINTS_PER_THREAD=16 -cl-nv-verbose
probe boxdirect box_filter_direct -DDTYPE_U8 -cl-nv-verbose
probe boxfast-f32 box_filter_fast -DDTYPE_F32 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose
probe conv1dnaive conv1d_naive -cl-nv-verbose
grep -v "^$" $R/probe.txt | grep -i "###\|entry\|registers\|error\|build:" | grep -v "Portable" | cut -c1-200 | head -120
tar czf $OUT/results.tar.gz -C $R .
