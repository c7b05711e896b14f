#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for o in "-DDTYPE_U8 -DRADIUS=1" "-DDTYPE_U8 -DRADIUS=4" "-DDTYPE_F32 -DRADIUS=1" "-DDTYPE_F32 -DRADIUS=4"; do
  echo "### $o" >> $R/stack.txt; timeout 30 $S/build_log conv2d_fast_registers $o -DROWS=4 -DBY=4 -cl-nv-verbose 2>&1 | grep -E "stack|Used|rror" >> $R/stack.txt
done
cat $R/stack.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends opencl --filter conv2d/ > $R/selftest-conv2d.txt 2>&1
echo "selftest rc=$?"; tail -4 $R/selftest-conv2d.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/c2.yaml --device opencl=NVIDIA --machine h100 --out $R/c2 > $R/c2.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror" $R/c2.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-130
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
