#!/bin/bash
# Session 9's final run: scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA (go.sh), then in a second call
# (go2.sh) the CUDA test binary's stockham and mixed-radix one-point tests and the selftest of both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/go.sh .gpu/me/go2.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 500 $S/dspbench run .gpu/me/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
