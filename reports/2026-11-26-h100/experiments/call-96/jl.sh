#!/bin/bash
# Session 12, call 96: Nsight Compute on the u8 tensor-core box filter of both backends (8K, m = 17): why NVIDIA's
# OpenCL twin runs about 18% behind CUDA's.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/jl.sh .gpu/me/p1.yaml .gpu/me/p2.yaml $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
for b in cuda opencl; do
  if [ $b = cuda ]; then Y=.gpu/me/p1.yaml; DEV=""; else Y=.gpu/me/p2.yaml; DEV="--device opencl=NVIDIA"; fi
  timeout 200 $NCU --target-processes all -k regex:"^box_filter_fast_mma_u8\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SourceCounters --section SchedulerStats --section ComputeWorkloadAnalysis -o $R/mma-$b $S/dspbench run $Y $DEV --out $R/p-$b > $R/ncu-$b.txt 2>&1
  echo "== $b ncu rc=$?"
  $NCU -i $R/mma-$b.ncu-rep --page details --print-details all > $R/details-$b.txt 2>&1
  grep -E "Duration|Registers Per|Shared Memory Config|Dynamic Shared|Static Shared|Block Limit|Achieved Occupancy|Theoretical Occupancy|Executed Ipc Active|Issue Slots Busy|No Eligible|Local" $R/details-$b.txt | head -20 | cut -c1-130
  $NCU -i $R/mma-$b.ncu-rep --page source --csv --print-source sass > $R/sass-$b.csv 2>&1
  python3 .gpu/me/summ.py $R/sass-$b.csv
  xz -9 $R/sass-$b.csv
done
rm -rf $R/p-*
tar czf $OUT/results.tar.gz -C $R .
