#!/bin/bash
# Session 44, call 360: HEAD's binaries (373b5eb): the OpenCL tests call 359 did not reach (NVIDIA's platform, one
# thread), then scenarios/box-sizes.yaml (now with 5760^2 and 6720 x 4480) on CUDA and NVIDIA's OpenCL.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-head.tar.xz -C $S || exit 1
R=/tmp/r360; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k360.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=opencl DSPBENCH_OPENCL_PLATFORM=NVIDIA timeout 200 $S/opencl-tests --test-threads 1 --exact $(cat .gpu/me/ocl-rest.txt) > $R/opencl-tests.log 2>&1; echo "opencl-tests rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "test result|FAILED|panicked" $R/opencl-tests.log | head
LEFT=$(( 580 - ($(date +%s) - T0) )); echo "box-sizes gets $LEFT s"
DSPBENCH_REQUIRE=cuda,opencl timeout $LEFT $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 scripts/box-shares.py $R/box-sizes > $R/shares.txt 2>&1; head -c 4000 $R/shares.txt
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
tar -cJf $OUT/r360.tar.xz -C /tmp r360; ls -la $OUT
