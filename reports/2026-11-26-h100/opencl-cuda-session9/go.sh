#!/bin/bash
# Session 9's final run: scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA, then the selftest of both GPU
# backends on the kernels this run's fix touched (fft stockham, conv1d fft-fused). The full selftest and the
# CUDA tests ran on the binary before the fix (go2.sh, selftest.txt, cuda-tests.txt).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/go.sh .gpu/me/go2.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run .gpu/me/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
for f in fft/stockham conv1d/fft-fused; do
  DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter $f > $R/selftest-$(dirname $f).txt 2>&1
  echo "selftest $f rc=$?"; tail -1 $R/selftest-$(dirname $f).txt
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
