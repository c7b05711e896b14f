#!/bin/bash
# Session 24, call 246: NVIDIA's OpenCL with the warpgroup pass 2 at every G = 3 window (the work-items' staging there):
# (1) the OpenCL box tests on NVIDIA's OpenCL; (2) box-final.yaml (scenarios/opencl-cuda.yaml's box experiments alone);
# (3) the box selftest on both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf24b.sh .gpu/me/box-final.yaml $R/
T0=$(date +%s)
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=4 box > $R/opencl-tests.txt 2>&1; echo "opencl box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/opencl-tests.txt | head -8 | cut -c1-1500
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/box-final.yaml --device opencl=NVIDIA --machine h100 --out $R/box-final > $R/run.log 2>&1
echo "box final rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/box-final > $R/ratios.txt 2>&1; grep -E "floor|\"window\"" $R/ratios.txt | cut -c1-200
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
