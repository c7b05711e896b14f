#!/bin/bash
# Session 14, call 132: pass 1's last column step as a half-K product where the shape's windows do not reach its
# upper 16 columns ((1, 1), (2, 2), (3, 3)): the CUDA and OpenCL box tests (OpenCL on one thread) and the box
# selftest of both GPU backends with the new kernels (embedded), timings against the head's (kv_head) twice
# alternating, then the final run of scenarios/opencl-cuda.yaml on this binary.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kv; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kv.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ke.sh .gpu/me/ab.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=2 box > $R/cuda-tests-box.txt 2>&1; echo "cuda tests box rc=$?"; grep -E "test result|panicked" $R/cuda-tests-box.txt | head -3
DSPBENCH_REQUIRE=opencl timeout 150 $S/opencl_tests --test-threads=1 box > $R/opencl-tests-box.txt 2>&1; echo "opencl tests box rc=$?"; grep -E "test result|panicked|Assertion" $R/opencl-tests-box.txt | head -3
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$?"; tail -n 1 $R/selftest-box.txt
for v in head new head2 new2; do
  case $v in head*) export DSPBENCH_KERNELS=$K/kv_head;; new*) unset DSPBENCH_KERNELS;; esac
  timeout 100 $S/dspbench run .gpu/me/ab.yaml --machine h100 --device opencl=NVIDIA --out $R/$v > $R/run-$v.log 2>&1
  echo "== $v rc=$?"; python3 .gpu/me/summ_box.py $R/$v/results.jsonl
done
unset DSPBENCH_KERNELS
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 .gpu/me/summ_box.py $R/opencl-cuda/results.jsonl 2>&1 | cut -c1-1500
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
