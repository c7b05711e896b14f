#!/bin/bash
# Session 52, call 386: (1) PROBE probe57.patch on 3efafa1: the G = 3 walk with its passes on different warps
# (spec57.yaml) against the committed walk, same rounds, every cell verified; (2) HEAD 3efafa1's CUDA test binary:
# the box planner's tests and the shared-boundary conformance test (call 385 as prepared); (3) the G = 3 step's
# halves alone (ablate57.yaml: pass 1's products left out, pass 2 and the mean left out, both; two blocks an SM);
# (4) HEAD's selftest of box-filter `fast` on CUDA and NVIDIA's OpenCL for what time is left.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin-s57.tar.xz -C $S || exit 1
nvidia-smi -L > $OUT/gpu-call386.txt 2>&1; cat $OUT/gpu-call386.txt; cp .gpu/me/k386.sh .gpu/me/s57/probe57.patch .gpu/me/scen/ablate57.yaml .gpu/me/scen/spec57.yaml $OUT/
T0=$(date +%s)
probe() { n=$1; lim=$2
  DSPBENCH_REQUIRE=cuda timeout $lim $S/probe/dspbench run .gpu/me/scen/$n.yaml --backends cuda --machine h100 --out /tmp/$n > $OUT/$n-run.log 2>&1
  echo "$n rc=$? at $(( $(date +%s) - T0 )) s"; grep -iE "error|fail|mismatch" $OUT/$n-run.log | head -4 | cut -c1-300; tail -1 $OUT/$n-run.log | cut -c1-300
  cp /tmp/$n/results.jsonl $OUT/$n-results.jsonl; cp /tmp/$n/report.md $OUT/$n-report.md 2>/dev/null
  python3 .gpu/me/s57/paired57.py /tmp/$n/results.jsonl > $OUT/$n-paired.txt 2>&1; sed 's/cuda:form=mma,//' $OUT/$n-paired.txt | cut -c1-200
}
probe spec57 200
DSPBENCH_REQUIRE=cuda timeout 60 $S/head/cuda-tests --test-threads 1 box_fast::tests:: conformance::box_filter_fast_mma_strips_sharing_their_boundary_agree_with_the_reference > $OUT/cuda-tests-call386.txt 2>&1
echo "cuda tests rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "test result" $OUT/cuda-tests-call386.txt | tail -3; grep -E "FAILED|panicked" $OUT/cuda-tests-call386.txt | head -5
probe ablate57 $(( 380 - ($(date +%s) - T0) ))
LEFT=$(( 460 - ($(date +%s) - T0) )); echo "selftest gets $LEFT s"
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=cuda,opencl timeout $LEFT $S/head/dspbench selftest --backends cuda,opencl --filter box-filter/fast > $OUT/selftest-call386.txt 2>&1
echo "selftest rc=$? at $(( $(date +%s) - T0 )) s"; tail -3 $OUT/selftest-call386.txt | cut -c1-300; grep -iE "fail|mismatch" $OUT/selftest-call386.txt | grep -v " 0 failed" | head -5 | cut -c1-300
