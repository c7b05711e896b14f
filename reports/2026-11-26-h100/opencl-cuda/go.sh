#!/bin/bash
# Session 7's report: scenarios/opencl-cuda.yaml on the H100, NVIDIA's OpenCL only (PoCL left out).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 500 $S/dspbench run .gpu/me/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
