#!/bin/bash
# Session 13, call 109: Nsight Compute on the f32 box filter's fused kernel, the committed one (k-old) and the
# run starts shared (default), 8K m = 5 and 63.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/gc.sh .gpu/me/gc.yaml $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
for m in 5 63; do
sed "s/WINDOW/$m/" .gpu/me/gc.yaml > /tmp/gc-$m.yaml
for v in new old; do
  if [ $v = old ]; then export DSPBENCH_KERNELS=.gpu/me/k-old; else unset DSPBENCH_KERNELS; fi
  timeout 200 $NCU --target-processes all -k regex:"^box_filter_fast_fused\$" --launch-skip 1 --launch-count 1 --set full -o $R/$v-$m $S/dspbench run /tmp/gc-$m.yaml --out $R/gc-$v-$m > $R/ncu-$v-$m.txt 2>&1
  echo "== $v m=$m ncu rc=$?"
  $NCU -i $R/$v-$m.ncu-rep --page details --print-details all > $R/details-$v-$m.txt 2>&1
  $NCU -i $R/$v-$m.ncu-rep --page source --csv --print-source sass > $R/sass-$v-$m.csv 2>&1
  grep -E "Duration|Executed Ipc A|Issue Slots Busy|L1/TEX Hit|L2 Hit|DRAM Throughput|Stall Long|Stall Barrier|Stall Short|Stall LG|Stall MIO|Stall Wait|Executed Instructions  |Achieved Occ|Shared Memory Configuration Size|Local Memory Spill" $R/details-$v-$m.txt | head -24
done
done
unset DSPBENCH_KERNELS
xz -9 $R/details-*.txt $R/sass-*.csv
rm -rf $R/*/plots $R/*/report.html $R/*.ncu-rep
tar czf $OUT/results.tar.gz -C $R .
