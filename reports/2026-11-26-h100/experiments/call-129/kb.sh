#!/bin/bash
# Session 14, call 129 (the final run's second call, same binary as call 128): NVIDIA's OpenCL compiling the
# tensor-core box filter's four shapes (registers, spills); the default u8 form past m = 49 on shallow strips
# against the word and ring forms, and OpenCL's tensor-core form at 4096^2 m = 63 in 8 .. 24 strips
# (shallow.yaml); then selftest --backends cuda,opencl (CUDA, NVIDIA's OpenCL, the machine's PoCL).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/kb.sh .gpu/me/shallow.yaml $R/
for gk in "2 1" "2 2" "3 2" "3 3"; do
  set -- $gk
  timeout 60 $S/build_log box_filter_fast_mma -DDTYPE_U8 -DNV_PTX -DMMA_G=$1 -DMMA_KH=$2 -cl-nv-maxrregcount=64 -cl-nv-verbose > $R/build-mma-$1$2.txt 2>&1
  echo "shape $1 $2: $(grep -h 'Used\|spill stores' $R/build-mma-$1$2.txt | tr -s ' ' | tr '\n' ' ' | cut -c1-200)"
done
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/shallow.yaml --device opencl=NVIDIA --machine h100 --out $R/shallow > $R/shallow.log 2>&1
echo "shallow rc=$?"; python3 .gpu/me/summ_box.py $R/shallow/results.jsonl
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 300 $S/dspbench selftest --backends cuda,opencl > $R/selftest.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest.txt; grep -i "fail" $R/selftest.txt | grep -v " 0 failed" | head -5 | cut -c1-600
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
