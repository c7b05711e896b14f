#!/bin/bash
# OpenCL stockham register kernel: selftest (NVIDIA OpenCL and PoCL), then .gpu/ocl.yaml against CUDA.
cd "$(dirname "$0")/.." || exit 1
tar xJf .gpu/ocl.tar.xz -C .gpu
B=.gpu/stage; R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
$B/dspbench list > $R/list.txt 2>&1; grep -iE "opencl|pocl|nvidia" $R/list.txt | head -8
DSPBENCH_REQUIRE=opencl timeout 170 $B/dspbench selftest --backends opencl --filter fft/ > $R/selftest-fft.txt 2>&1
echo "selftest rc=$?"; tail -3 $R/selftest-fft.txt; grep -iE "fail|mismatch" $R/selftest-fft.txt | head -8
DSPBENCH_REQUIRE=cuda,opencl timeout ${RUN_S:-170} $B/dspbench run .gpu/ocl.yaml --device opencl=NVIDIA --machine h100 --out $R/ocl > $R/run.log 2>&1
echo "run rc=$?"
grep -E "^\[" $R/run.log | sed 's/(median.*verified/verified/' | cut -c1-170
grep -vE "^\[" $R/run.log | tail -4
cp .gpu/ocl.yaml $R/
tar czf $OUT/results.tar.gz -C $R .
