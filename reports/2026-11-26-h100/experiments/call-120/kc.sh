#!/bin/bash
# Session 13, call 120 (after the review): the build at HEAD (a kernel comment changed after the final run): the
# CUDA test binary's box and stockham tests, the OpenCL test binary's box and fft tests (the machine's PoCL), and
# `selftest --backends cuda,opencl --filter box-filter` and `--filter fft/stockham`.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kc.sh $R/
for f in box stockham; do timeout 150 $S/cuda_tests $f > $R/cuda-tests-$f.txt 2>&1; echo "cuda tests $f rc=$?"; grep "test result" $R/cuda-tests-$f.txt; done
for f in box fft; do timeout 150 $S/opencl_tests $f > $R/opencl-tests-$f.txt 2>&1; echo "opencl tests $f rc=$?"; grep "test result" $R/opencl-tests-$f.txt; done
for f in box-filter fft/stockham; do
  DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench selftest --backends cuda,opencl --filter $f > $R/selftest-${f%%/*}.txt 2>&1
  echo "selftest $f rc=$?"; tail -n 1 $R/selftest-${f%%/*}.txt
done
tar czf $OUT/results.tar.gz -C $R .
