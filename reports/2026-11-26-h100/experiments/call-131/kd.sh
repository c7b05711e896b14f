#!/bin/bash
# Session 14, call 131: OpenCL's tensor-core u8 box filter without reqd_work_group_size (kv_noattr: NVIDIA's compiler
# then applies the host's cap of 64 registers, as kernels/opencl/box_filter_fast.cl found for its fused kernels),
# registers by shape (build_log), and timings in default strips and strips for 4 groups a compute unit, against the
# committed kernel, twice alternating; CUDA beside.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kv; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kv.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/kd.sh .gpu/me/noattr.yaml $R/
for gk in "2 1" "2 2" "3 2" "3 3"; do
  set -- $gk
  DSPBENCH_KERNELS=$K/kv_noattr timeout 60 $S/build_log box_filter_fast_mma -DDTYPE_U8 -DNV_PTX -DMMA_G=$1 -DMMA_KH=$2 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/build-noattr-$1$2.txt 2>&1
  echo "noattr shape $1 $2: $(grep -h 'Used\|spill stores' $R/build-noattr-$1$2.txt | tr -s ' ' | tr '\n' ' ' | cut -c1-200)"
done
for v in head noattr head2 noattr2; do
  case $v in head*) unset DSPBENCH_KERNELS;; noattr*) export DSPBENCH_KERNELS=$K/kv_noattr;; esac
  timeout 120 $S/dspbench run .gpu/me/noattr.yaml --machine h100 --device opencl=NVIDIA --out $R/$v > $R/run-$v.log 2>&1
  echo "== $v rc=$?"; python3 .gpu/me/summ_box.py $R/$v/results.jsonl
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
