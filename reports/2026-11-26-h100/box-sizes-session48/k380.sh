#!/bin/bash
# Session 48, call 380: 9bbf9c7's dspbench (the tails the default under CUDA's dependent launches):
# scenarios/box-sizes.yaml on both backends, written straight under $OUT so that a limit keeps what ran.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s51.tar.xz -C $S || exit 1
R=$OUT/r380; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k380.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 430 $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 scripts/box-shares.py $R/box-sizes > $R/shares.txt 2>&1; grep "^cuda u8" $R/shares.txt | cut -c1-75
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
xz -9 $R/box-sizes/*.jsonl $R/box-sizes/*.csv $R/run.log 2>/dev/null; du -sh $R
