#!/bin/bash
# Session 47, call 371: 812f7af's binaries (UHD's strips where CUDA launches a batch's calls dependently): the CUDA test
# binary whole, then scenarios/box-sizes.yaml on both backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s46.tar.xz -C $S || exit 1
R=/tmp/r371; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k371.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 170 $S/cuda-tests > $R/cuda-tests.txt 2>&1; echo "cuda-tests rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "test result|FAILED|panicked" $R/cuda-tests.txt | head
LEFT=$(( 580 - ($(date +%s) - T0) )); echo "box-sizes gets $LEFT s"
DSPBENCH_REQUIRE=cuda,opencl timeout $LEFT $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 scripts/box-shares.py $R/box-sizes > $R/shares.txt 2>&1; grep "^cuda u8" $R/shares.txt | cut -c1-75
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
tar -cJf $OUT/r371.tar.xz -C /tmp r371; ls -la $OUT
