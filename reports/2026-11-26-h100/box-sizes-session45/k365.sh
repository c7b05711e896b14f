#!/bin/bash
# Session 45, call 365: the band matrices built before a walk's first copies (kernel folder k365bands, as call 363's
# form) against after them (the binaries' own), each process dependent and plain in the same rounds, A B A B;
# then scenarios/box-sizes.yaml (CUDA and NVIDIA's OpenCL).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s45.tar.xz -C $S || exit 1
R=/tmp/r365; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt; cp .gpu/me/k365.sh .gpu/me/scen/defer45.yaml $R/
M="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' _)"
T0=$(date +%s)
f=defer45
for pass in 1 2; do
  for who in A B; do
    if [ $who = B ]; then export DSPBENCH_KERNELS=.gpu/me/k365bands; else unset DSPBENCH_KERNELS; fi
    o=$f-$who$pass
    DSPBENCH_REQUIRE=cuda timeout 100 $S/dspbench run .gpu/me/scen/$f.yaml --backends cuda --machine "$M" --out $R/$o > $R/$o.log 2>&1; echo "$o rc=$? at $(( $(date +%s) - T0 )) s"; grep -iE "error|mismatch|fail" $R/$o.log | head -5
    python3 .gpu/me/paired.py $R/$o/results.jsonl > $R/$o-paired.txt 2>&1
    python3 scripts/box-shares.py $R/$o > $R/$o-shares.txt 2>&1
    rm -rf $R/$o/plots $R/$o/report.html
  done
done
unset DSPBENCH_KERNELS
for w in A1 B1 A2 B2; do grep " on " $R/$f-$w-shares.txt | awk -v w=$w '{print w, $3, $4, $6}'; done | sort -k2,2 -k3,3n -s | awk '{k=$2" "$3; a[k]=a[k]" "$1":"$4} END{for(k in a) print k, a[k]}' | sort
LEFT=$(( 590 - ($(date +%s) - T0) )); echo "box-sizes gets $LEFT s"
DSPBENCH_REQUIRE=cuda,opencl timeout $LEFT $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -iE "mismatch|failed|error" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 scripts/box-shares.py $R/box-sizes > $R/shares.txt 2>&1; grep "^cuda u8" $R/shares.txt | cut -c1-75
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
tar -cJf $OUT/r365.tar.xz -C /tmp r365; ls -la $OUT
