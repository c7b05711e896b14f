#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/fw.yaml .gpu/me/fw.sh $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run .gpu/me/fw.yaml --device opencl=NVIDIA --machine h100 --out $R/fw > $R/fw.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror\|refused" $R/fw.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-170
timeout 200 $S/dspbench selftest --backends opencl --filter fft/ > $R/selftest-fft.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest-fft.txt; grep -i "fail" $R/selftest-*.txt | grep -v " 0 failed" | head -10
$S/build_log fft_stockham -DREGISTERS=1 -DCOLUMNS=1 -DSPLIT=1 -DLOG2_SIZE=14 -DPOINTS_PER_THREAD=16 -DFOLD=0 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/buildlog-16384.txt 2>&1
$S/build_log fft_stockham -DREGISTERS=1 -DCOLUMNS=4 -DSPLIT=1 -DLOG2_SIZE=12 -DPOINTS_PER_THREAD=16 -DFOLD=0 -DSTRIDED=1 -DIN_COLS=1 -DOUT_COLS=1 -DTWIDDLE=0 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/buildlog-4x4096.txt 2>&1
grep -h "Used\|spill\|stack" $R/buildlog-*.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .

