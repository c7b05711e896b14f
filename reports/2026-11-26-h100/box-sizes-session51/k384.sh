#!/bin/bash
# Session 51, call 384: 634698c's dspbench (HEAD, bin-s56): scenarios/box-sizes.yaml on both backends, the
# records packed into one archive (call 380's raw records did not come back), with the shares and ratios.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s56.tar.xz -C $S || exit 1
R=/tmp/r384; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k384.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 470 $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr " " _)" --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 scripts/box-shares.py $R/box-sizes > $R/shares.txt 2>&1; grep "^cuda u8" $R/shares.txt | cut -c1-75
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
tar cJf $OUT/r384.tar.xz -C /tmp r384; ls -la $OUT
