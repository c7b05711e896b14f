#!/bin/bash
# Session 19's final run: the roof measured by the driver's copy and our copy kernel (the higher median), no kernel of a
# workload changed since session 18: the CUDA and OpenCL box tests (OpenCL on one thread: NVIDIA's OpenCL and the
# machine's PoCL 5.0), scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA (cuFFT beside), then the box selftest of
# both GPU backends, all on one binary (the committed sources).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf19.sh $R/
DSPBENCH_REQUIRE=cuda timeout 120 $S/cuda_tests --test-threads=2 box > $R/cuda-tests-box.txt 2>&1; echo "cuda tests box rc=$?"; grep -E "test result|panicked" $R/cuda-tests-box.txt | head -3
DSPBENCH_REQUIRE=opencl timeout 100 $S/opencl_tests --test-threads=1 box > $R/opencl-tests-box.txt 2>&1; echo "opencl tests box rc=$?"; grep -E "test result|panicked|Assertion" $R/opencl-tests-box.txt | head -3
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 360 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda 2>&1 | grep -E '^[45] ' | cut -c1-220
DSPBENCH_REQUIRE=cuda,opencl timeout 110 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$?"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
