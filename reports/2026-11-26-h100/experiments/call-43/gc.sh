#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gc.yaml .gpu/me/gc.sh $R/
for v in none hA hB hC; do
  if [ $v = none ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  timeout 110 $S/dspbench run .gpu/me/gc.yaml --machine h100 --out $R/gc-$v > $R/gc-$v.log 2>&1
  echo "== $v rc=$?"; grep "pass 4 of 4" $R/gc-$v.log | sed 's/.*dtype=\([a-z0-9]*\) height=\([0-9]*\).*width=\([0-9]*\) window=\([0-9]*\)\]: \(.*\)/\1 \3x\2 m=\4 \5/' | cut -c1-50; grep -i "mismatch\|error" $R/gc-$v.log | head -3 | cut -c1-200
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
