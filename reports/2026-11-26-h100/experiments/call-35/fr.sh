#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/fr.yaml .gpu/me/fr.sh $R/
DSPBENCH_REQUIRE=cuda,peers timeout 330 $S/dspbench run .gpu/me/fr.yaml --device opencl=NVIDIA --machine h100 --out $R/fr > $R/fr.log 2>&1
echo "run rc=$?"
grep "pass 4 of 4\|skipped\|rror\|refused" $R/fr.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-170
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
