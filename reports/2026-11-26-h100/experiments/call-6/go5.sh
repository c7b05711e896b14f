#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for o in "-DDTYPE_F32 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64" "-DDTYPE_U8 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64"; do
  echo "### $o" >> $R/stack.txt; timeout 30 $S/build_log box_filter_fast $o -cl-nv-verbose 2>&1 | grep -E "stack|Used|rror" >> $R/stack.txt
done
cat $R/stack.txt
DSPBENCH_REQUIRE=opencl timeout 150 $S/dspbench selftest --backends opencl --device opencl=NVIDIA --filter box-filter/fast > $R/selftest-box.txt 2>&1 || DSPBENCH_REQUIRE=opencl timeout 150 $S/dspbench selftest --backends opencl --filter box-filter/fast > $R/selftest-box.txt 2>&1
echo "selftest box rc=$?"; tail -3 $R/selftest-box.txt
DSPBENCH_REQUIRE=opencl timeout 150 $S/dspbench selftest --backends opencl --filter fft/mixed > $R/selftest-mixed.txt 2>&1
echo "selftest mixed rc=$?"; tail -3 $R/selftest-mixed.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/bx.yaml --device opencl=NVIDIA --machine h100 --out $R/bx > $R/bx.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror" $R/bx.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-130
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
