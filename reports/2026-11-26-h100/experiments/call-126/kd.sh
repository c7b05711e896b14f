#!/bin/bash
# Session 14, call 126: the CUDA tensor-core u8 box filter compiled one shape a module (MMA_G, MMA_KH from the
# host, as the OpenCL twin) with pass 2's half-K products (embedded = the working tree), against the head's kernels
# (kv_head) and the single-shape kernels with full products only (kv_skip1): CUDA box tests and the box selftest of
# both GPU backends with the embedded kernels, then timings head / skip1 / k16, twice, alternating.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kv; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kv.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/kd.sh .gpu/me/k16.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
timeout 250 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1; echo "selftest rc=$?"; tail -1 $R/selftest.txt; grep -i fail $R/selftest.txt | grep -v " 0 failed" | head
for v in head skip1 k16 head2 skip12 k16b; do
  case $v in head*) export DSPBENCH_KERNELS=$K/kv_head;; skip1*) export DSPBENCH_KERNELS=$K/kv_skip1;; k16*) unset DSPBENCH_KERNELS;; esac
  timeout 100 $S/dspbench run .gpu/me/k16.yaml --machine h100 --device opencl=NVIDIA --out $R/$v > $R/run-$v.log 2>&1
  echo "== $v rc=$?"; python3 .gpu/me/summ_box.py $R/$v/results.jsonl
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
