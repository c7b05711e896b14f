#!/bin/bash
# Session 14, call 125: the tensor-core u8 box filter with pass 2's half-K products where Band_y has weight in one
# half of a group (kv_k16 = the working tree's kernels) against call 124's skip (kv_new) and the head: box tests of
# both GPU backends and the box selftest with kv_k16, then timings of head / new / k16, twice, alternating.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kv; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kv.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/kc.sh .gpu/me/k16.yaml $R/
export DSPBENCH_KERNELS=$K/kv_k16
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
# (the OpenCL test binary left out: the checkout and this folder pass the 64 MiB transfer)
timeout 250 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1; echo "selftest rc=$?"; tail -1 $R/selftest.txt; grep -i fail $R/selftest.txt | grep -v " 0 failed" | head
for v in head new k16 head2 new2 k16b; do
  case ${v%2} in head) unset DSPBENCH_KERNELS;; new) export DSPBENCH_KERNELS=$K/kv_new;; k16|k16b) export DSPBENCH_KERNELS=$K/kv_k16;; esac
  timeout 100 $S/dspbench run .gpu/me/k16.yaml --machine h100 --device opencl=NVIDIA --out $R/$v > $R/run-$v.log 2>&1
  echo "== $v rc=$?"; python3 .gpu/me/summ_box.py $R/$v/results.jsonl
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
