#!/bin/bash
# Session 14's final run (call 134): the tensor cores by default up to m = 63 where their strips are 3 blocks deep,
# OpenCL's (3, 3) without pass 1's half-K last step: the CUDA and OpenCL box tests (OpenCL on one thread: NVIDIA's
# OpenCL and the machine's PoCL 5.0) and the box selftest of both GPU backends, then scenarios/opencl-cuda.yaml on
# NVIDIA's OpenCL and CUDA (cuFFT beside), all on one binary.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kg.sh $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=2 box > $R/cuda-tests-box.txt 2>&1; echo "cuda tests box rc=$?"; grep -E "test result|panicked" $R/cuda-tests-box.txt | head -3
DSPBENCH_REQUIRE=opencl timeout 150 $S/opencl_tests --test-threads=1 box > $R/opencl-tests-box.txt 2>&1; echo "opencl tests box rc=$?"; grep -E "test result|panicked|Assertion" $R/opencl-tests-box.txt | head -3
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$?"; tail -n 1 $R/selftest-box.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 .gpu/me/summ_box.py $R/opencl-cuda/results.jsonl 2>&1 | cut -c1-1500
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
