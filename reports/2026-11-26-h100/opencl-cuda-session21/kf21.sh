#!/bin/bash
# Session 21's final run: the launch floor's tests on both GPU backends (the CUDA floor, the OpenCL device descriptions),
# then scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA (cuFFT beside; the launch floors in machine.json), then the
# selftest of the box filter on both GPU backends, all on one binary (the committed sources).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf21.sh $R/
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests --test-threads=2 launch_floor every_kernel_file > $R/cuda-tests.txt 2>&1; echo "cuda tests rc=$?"; grep -E "test result|panicked" $R/cuda-tests.txt | head -3 | cut -c1-1500
DSPBENCH_REQUIRE=opencl timeout 60 $S/opencl_tests --test-threads=2 contract::describes > $R/opencl-tests.txt 2>&1; echo "opencl tests rc=$?"; grep -E "test result|panicked" $R/opencl-tests.txt | head -3 | cut -c1-1500
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 360 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda > $R/ratios.txt 2>&1; grep -E "floor|box|batch\": (1|16|64)," $R/ratios.txt | cut -c1-300
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$?"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
