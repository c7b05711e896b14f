#!/bin/bash
# Session 14's final run (call 130; call 128 ran it before the default form's rule went back to m <= 49 and OpenCL's tensor-core strips by shape): scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA (cuFFT beside); then the
# CUDA test binary's box tests and the OpenCL test binary's box tests (NVIDIA's OpenCL and the machine's PoCL 5.0, one
# thread: PoCL 5.0 aborts under concurrent threads, docs/gpu-machine.md).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kc.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 360 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 .gpu/me/summ_box.py $R/opencl-cuda/results.jsonl 2>&1 | head -3 | cut -c1-2000
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=2 box > $R/cuda-tests-box.txt 2>&1; echo "cuda tests box rc=$?"; grep -E "test result|panicked" $R/cuda-tests-box.txt | head -3
DSPBENCH_REQUIRE=opencl timeout 150 $S/opencl_tests --test-threads=1 box > $R/opencl-tests-box.txt 2>&1; echo "opencl tests box rc=$?"; grep -E "test result|panicked|Assertion" $R/opencl-tests-box.txt | head -3
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$?"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
