#!/bin/bash
# Session 44, call 359: HEAD's binaries (373b5eb, the review refactor): both GPU test binaries whole (CUDA; OpenCL on
# NVIDIA's platform, one thread), then scenarios/opencl-cuda.yaml (every workload's best variant, both backends).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-head.tar.xz -C $S || exit 1
R=/tmp/r359; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k359.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 170 $S/cuda-tests > $R/cuda-tests.log 2>&1; echo "cuda-tests rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "test result|FAILED|panicked" $R/cuda-tests.log | head
DSPBENCH_REQUIRE=opencl DSPBENCH_OPENCL_PLATFORM=NVIDIA timeout 170 $S/opencl-tests --test-threads 1 > $R/opencl-tests.log 2>&1; echo "opencl-tests rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "test result|FAILED|panicked" $R/opencl-tests.log | head
LEFT=$(( 575 - ($(date +%s) - T0) )); echo "opencl-cuda gets $LEFT s"
M="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' _)"
DSPBENCH_REQUIRE=cuda,opencl timeout $LEFT $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda > $R/opencl-cuda/ratios.txt 2>&1; head -c 3000 $R/opencl-cuda/ratios.txt; rm -rf $R/opencl-cuda/plots $R/opencl-cuda/report.html
tar -cJf $OUT/r359.tar.xz -C /tmp r359; ls -la $OUT
