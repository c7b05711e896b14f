#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/fp.yaml .gpu/me/fp.sh $R/; cp .gpu/me/k2/opencl/conv1d_fft_fused_registers.h $R/k2-conv1d_fft_fused_registers.h
for v in base int; do
  if [ $v = int ]; then export DSPBENCH_KERNELS=$PWD/.gpu/me/k2; else unset DSPBENCH_KERNELS; fi
  DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/fp.yaml --device opencl=NVIDIA --machine h100 --out $R/fp-$v > $R/fp-$v.log 2>&1
  echo "$v rc=$?"; grep "pass 4 of 4\|skipped\|rror\|FAIL" $R/fp-$v.log | sed 's/(median of \([0-9]*\).*/n=\1/' | cut -c1-150
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
