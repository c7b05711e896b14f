#!/bin/bash
# Session 23's final run on the warpgroup pass 2 as two chains of three products, one statement each (defined
# accumulators): (1) the CUDA box tests; (2) scenarios/opencl-cuda.yaml; (3) the box selftest on both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf23.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 150 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1; echo "cuda box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/cuda-tests.txt | head -6 | cut -c1-1500
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 330 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda > $R/ratios.txt 2>&1; grep -E "floor|\"window\"" $R/ratios.txt | grep -v f32 | cut -c1-200
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
