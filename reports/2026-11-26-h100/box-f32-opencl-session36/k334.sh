#!/bin/bash
# Session 36, call 334: box-filter conformance on the card (CUDA, NVIDIA's OpenCL), f32 OpenCL against CUDA at every window and size, CUDA's fused kernel against the one before, OpenCL UHD strips.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S ./dspbench || exit 1
R=$OUT; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --filter box-filter > $R/selftest.log 2>&1; echo "selftest rc=$?"; grep -v "^ok " $R/selftest.log | tail -6; grep -c "^ok " $R/selftest.log
for f in final36 cudakept; do
  DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/scen/$f.yaml --device opencl=NVIDIA --machine h100 --out $R/$f > $R/$f.log 2>&1; echo "$f rc=$?"
  python3 .gpu/me/summary.py $R/$f/results.jsonl | sed 's/ n=[0-9]*//g' > $R/$f-summary.txt; echo "unverified: $(grep -c UNVERIFIED $R/$f-summary.txt)"; cat $R/$f-summary.txt
  grep -i "error\|fail" $R/$f.log | head -3
  xz -9 $R/$f/results.jsonl; mv $R/$f/results.jsonl.xz $R/$f-results.jsonl.xz; cp $R/$f/machine.json $R/$f-machine.json; rm -rf $R/$f
done
