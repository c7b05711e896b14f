#!/bin/bash
# Session 47, call 372: 812f7af's binaries: the one CUDA test call 371 left unfinished (UHD's default form assertions),
# alone, then the u8 box filter's defaults on UHD / DCI / 5K (targets47.yaml), two processes.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s46.tar.xz -C $S || exit 1
R=/tmp/r372; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k372.sh .gpu/me/scen/targets47.yaml $R/
M="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' _)"
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 300 $S/cuda-tests --exact conformance::box_filter_fast_ring_and_word_forms_agree_with_the_reference > $R/cuda-test.txt 2>&1; echo "cuda-test rc=$? at $(( $(date +%s) - T0 )) s"; tail -4 $R/cuda-test.txt
for o in targets47-1 targets47-2; do
  LEFT=$(( 280 - ($(date +%s) - T0) / 2 )); [ $LEFT -gt 120 ] && LEFT=120
  DSPBENCH_REQUIRE=cuda timeout $LEFT $S/dspbench run .gpu/me/scen/targets47.yaml --backends cuda --machine "$M" --out $R/$o > $R/$o.log 2>&1; echo "$o rc=$? at $(( $(date +%s) - T0 )) s"; grep -iE "error|mismatch|fail" $R/$o.log | head -5
  python3 scripts/box-shares.py $R/$o > $R/$o-shares.txt 2>&1; grep "^cuda u8" $R/$o-shares.txt | cut -c1-110
  rm -rf $R/$o/plots $R/$o/report.html
done
tar -cJf $OUT/r372.tar.xz -C /tmp r372; ls -la $OUT
