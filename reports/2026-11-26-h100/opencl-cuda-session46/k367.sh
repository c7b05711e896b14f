#!/bin/bash
# Session 46, call 367 (first run as call 366 with a 185 s limit, which ended after 456 of 620 cells): scenarios/opencl-cuda.yaml (every workload's best variant, CUDA and NVIDIA's OpenCL) with the
# binaries of dc827cf.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s45.tar.xz -C $S || exit 1
R=/tmp/r367; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k366.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 420 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda > $R/opencl-cuda/ratios.txt 2>&1; rm -rf $R/opencl-cuda/plots $R/opencl-cuda/report.html
tar -cJf $OUT/r367.tar.xz -C /tmp r367; ls -la $OUT
