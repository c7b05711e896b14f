#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gb.yaml .gpu/me/gp.yaml .gpu/me/gb.sh $R/
for v in none start sub norow; do
  if [ $v = none ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/abl-$v; fi
  timeout 100 $S/dspbench run .gpu/me/gb.yaml --machine h100 --out $R/gb-$v > $R/gb-$v.log 2>&1
  echo "== $v rc=$?"; grep "ms ±" $R/gb-$v.log | sed 's/.*window=\([0-9]*\)\]: \(.*\)/m=\1 \2/' | cut -c1-80
done
unset DSPBENCH_KERNELS
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 200 $NCU --target-processes all -k regex:"^box_filter_fast_fused\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis $S/dspbench run .gpu/me/gp.yaml --out $R/gp > $R/ncu-f32-63.txt 2>&1
echo "ncu rc=$?"; grep -E "Duration|Throughput|Warp Cycles|Stall|Achieved Occupancy|Registers|L1/TEX Hit|L2 Hit|Issued|Eligible|Active Warps|No Eligible|ERR" $R/ncu-f32-63.txt | head -40
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
