#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
scan() { echo "### $*" >> $R/stack.txt; timeout 30 $S/build_log "$@" -cl-nv-verbose 2>&1 | grep -E "stack|Used|rror" >> $R/stack.txt; }
scan box_filter_fast -DDTYPE_U8
scan box_filter_fast -DDTYPE_F32
scan conv2d_fast -DRADIUS=1 -DDTYPE_U8
scan conv2d_fast -DRADIUS=4 -DDTYPE_F32
scan conv1d_fft_fused -DLOG2_SIZE=12
scan fft_mixed -DCOLUMNS=4 -DPAD_SHIFT=4 -DPASS0_NS=1 -DPASS0_R=8 -DPASS0_TW=0 -DPASS1_NS=8 -DPASS1_R=5 -DPASS1_TW=7 -DPASS2_NS=40 -DPASS2_R=5 -DPASS2_TW=39 -DPASS3_NS=200 -DPASS3_R=5 -DPASS3_TW=199 -DPASSES=4 -DSIZE=1000 -DTHREADS=256
scan fft_stockham -DREGISTERS=1 -DLOG2_SIZE=13 -DCOLUMNS=1 -DPOINTS_PER_THREAD=16 -DSPLIT=1
cat $R/stack.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/fft7b.yaml --device opencl=NVIDIA --machine h100 --out $R/fft > $R/fft.log 2>&1
echo "run fft rc=$? in $(( $(date +%s) - T0 )) s"
grep "pass 4 of 4\|skipped\|rror" $R/fft.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-130
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/gx.yaml --device opencl=NVIDIA --machine h100 --out $R/gx > $R/gx.log 2>&1
echo "run gx rc=$? in $(( $(date +%s) - T0 )) s"
grep "pass 4 of 4\|skipped\|rror" $R/gx.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-130
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
