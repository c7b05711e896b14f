#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/fq.yaml .gpu/me/fq.sh $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"; $NCU --version 2>&1 | tail -1
for k in box_filter_fast_fused_u8x4 box_filter_fast_fused; do
  timeout 200 $NCU --target-processes all -k regex:"^${k}\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats $S/dspbench run .gpu/me/fq.yaml --out $R/fq-$k > $R/ncu-$k.txt 2>&1
  echo "$k rc=$?"; grep -E "Duration|Throughput|Warp Cycles|Stall|Achieved Occupancy|Theoretical Occupancy|Registers|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Issued|ERR|==PROF==" $R/ncu-$k.txt | head -40
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
