#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
for k in 1 2; do
  start=$(date +%s)
  DSPBENCH_REQUIRE=cuda,peers timeout 250 $S/dspbench run scenarios/gpu-showcase.yaml --machine h100 --out $R/showcase-$k > $R/showcase-$k.log 2>&1
  echo "run $k: rc $? in $(( $(date +%s) - start )) s"; tail -1 $R/showcase-$k.log
done
rm -f $R/showcase-*/report.html; rm -rf $R/showcase-*/plots
tar czf $OUT/results.tar.gz -C $R .
