#!/bin/bash
# Session 14, call 124: the tensor-core u8 box filter with its copies trimmed to the window's reach (kv_trim), and
# pass 2 skipping the first half's last group too (kv_new = the working tree's kernels): box tests of both GPU
# backends and the box selftest with kv_new, then timings of head / trim / new, twice, alternating.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kv; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kv.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/kb.sh .gpu/me/skip.yaml $R/
export DSPBENCH_KERNELS=$K/kv_new
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -4 | cut -c1-1500
DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=1 box > $R/opencl-tests.txt 2>&1
echo "opencl tests rc=$?"; grep "test result\|panicked\|Assertion" $R/opencl-tests.txt | head -4 | cut -c1-1500
timeout 250 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest.txt 2>&1; echo "selftest rc=$?"; tail -1 $R/selftest.txt; grep -i fail $R/selftest.txt | grep -v " 0 failed" | head
for v in head trim new head2 trim2 new2; do
  case ${v%2} in head) unset DSPBENCH_KERNELS;; trim) export DSPBENCH_KERNELS=$K/kv_trim;; new) export DSPBENCH_KERNELS=$K/kv_new;; esac
  timeout 100 $S/dspbench run .gpu/me/skip.yaml --machine h100 --device opencl=NVIDIA --out $R/$v > $R/run-$v.log 2>&1
  echo "== $v rc=$?"; python3 .gpu/me/summ_box.py $R/$v/results.jsonl
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
