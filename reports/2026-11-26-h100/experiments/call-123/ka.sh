#!/bin/bash
# Session 14, call 123: the data-movement floor of the u8 box filter's access patterns (tile_copy.cu),
# the tensor-core form copying only the columns its window reads (kv_trim) against the embedded one.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/ka.sh .gpu/me/trim.yaml .gpu/me/tc/tile_copy.cu $R/
export PATH=$PATH:/usr/local/cuda/bin
nvcc -O3 -arch=sm_90 -o $S/tile_copy .gpu/me/tc/tile_copy.cu > $R/nvcc.txt 2>&1; echo "nvcc rc=$?"; head -5 $R/nvcc.txt
timeout 120 $S/tile_copy > $R/tile_copy.txt 2>&1; echo "tile_copy rc=$?"; cat $R/tile_copy.txt
DSPBENCH_KERNELS=.gpu/me/kv_trim DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=1 box_filter_fast > $R/cuda-tests.txt 2>&1
echo "cuda tests (trim) rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
for k in embedded trim; do
  if [ $k = trim ]; then export DSPBENCH_KERNELS=.gpu/me/kv_trim; else unset DSPBENCH_KERNELS; fi
  DSPBENCH_REQUIRE=cuda timeout 150 $S/dspbench run .gpu/me/trim.yaml --machine h100 --out $R/$k > $R/run-$k.log 2>&1
  echo "run $k rc=$?"; grep -i "error\|fail" $R/run-$k.log | head -5 | cut -c1-500
  python3 .gpu/me/summ_box.py $R/$k/results.jsonl
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
