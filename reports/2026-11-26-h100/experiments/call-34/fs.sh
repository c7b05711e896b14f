#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/fs.yaml .gpu/me/fs.sh $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run .gpu/me/fs.yaml --device opencl=NVIDIA --machine h100 --out $R/fs > $R/fs.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror\|refused" $R/fs.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-170
timeout 200 $S/dspbench selftest --backends cuda --filter box-filter/fast > $R/selftest-box.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest-box.txt; grep -i "fail" $R/selftest-*.txt | grep -v " 0 failed" | head -10
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
