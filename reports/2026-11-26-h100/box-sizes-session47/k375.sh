#!/bin/bash
# Session 47, call 375: 812f7af's binaries, a second card:
# the u8 box filter's defaults on UHD / DCI / 5K (targets47.yaml), two processes.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s46.tar.xz -C $S || exit 1
R=/tmp/r375; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k375.sh .gpu/me/scen/targets47.yaml $R/
M="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' _)"
T0=$(date +%s)
for o in targets47-1 targets47-2; do
  LEFT=$(( 280 - ($(date +%s) - T0) / 2 )); [ $LEFT -gt 120 ] && LEFT=120
  DSPBENCH_REQUIRE=cuda timeout $LEFT $S/dspbench run .gpu/me/scen/targets47.yaml --backends cuda --machine "$M" --out $R/$o > $R/$o.log 2>&1; echo "$o rc=$? at $(( $(date +%s) - T0 )) s"; grep -iE "error|mismatch|fail" $R/$o.log | head -5
  python3 scripts/box-shares.py $R/$o > $R/$o-shares.txt 2>&1; grep "^cuda u8" $R/$o-shares.txt | cut -c1-110
  rm -rf $R/$o/plots $R/$o/report.html
done
tar -cJf $OUT/r375.tar.xz -C /tmp r375; ls -la $OUT
