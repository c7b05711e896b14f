#!/bin/bash
# Session 50, call 383: (1) call 382's probe as prepared: 0cdd7c9 + probe382.patch (bin-s53), strips that
# skip their last two groups' pass 1 and staging (outputs wrong there by design) against own and shared, same
# rounds, plus the cluster occupancy; (2) 2623870's dspbench (bin-s55): NVIDIA's OpenCL u8 at G <= 2 on UHD and
# DCI 4K, its spreads, staging and strips, and CUDA launched plainly (twins55.yaml).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S/probe $S/head; tar xJf .gpu/me/bin-s53.tar.xz -C $S/probe || exit 1; tar xJf .gpu/me/bin-s55.tar.xz -C $S/head || exit 1
R=/tmp/r383; rm -rf $R; mkdir -p $R; nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/k383.sh .gpu/me/probe382.patch .gpu/me/scen/probe53.yaml .gpu/me/scen/twins55.yaml $R/
python3 .gpu/me/s49/clusters.py 57376 > $R/clusters.txt 2>&1; python3 .gpu/me/s49/clusters.py 81920 >> $R/clusters.txt 2>&1; cat $R/clusters.txt
T0=$(date +%s)
pack() { tar cJf $OUT/r383.tar.xz --exclude=plots --exclude=report.html -C /tmp r383; }
pack
for p in a b; do
  DSPBENCH_REQUIRE=cuda timeout 110 $S/probe/dspbench run .gpu/me/scen/probe53.yaml --backends cuda --machine h100 --out $R/probe-$p > $R/probe-run-$p.log 2>&1
  echo "probe $p rc=$? at $(( $(date +%s) - T0 )) s"
  python3 .gpu/me/s48/paired.py $R/probe-$p/results.jsonl > $R/probe-paired-$p.txt 2>&1; sed 's/cuda:form=mma,mma_boundary=//g; s/,mma_spread=strips//g' $R/probe-paired-$p.txt | cut -c1-250
  pack
done
DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/head/dspbench run .gpu/me/scen/twins55.yaml --device opencl=NVIDIA --machine h100 --out $R/twins > $R/twins-run.log 2>&1
echo "twins rc=$? at $(( $(date +%s) - T0 )) s"; tail -2 $R/twins-run.log | cut -c1-300
python3 scripts/tunable-ratios.py $R/twins > $R/twins-ratios.txt 2>&1; cut -c1-200 $R/twins-ratios.txt | head -80
python3 scripts/opencl-cuda-ratios.py $R/twins > $R/twins-cl-cuda.txt 2>&1; cut -c1-200 $R/twins-cl-cuda.txt | head -30
pack
mkdir -p $S/t; tar xJf .gpu/me/bin-s55t.tar.xz -C $S/t && DSPBENCH_REQUIRE=opencl DSPBENCH_OPENCL_PLATFORM=NVIDIA timeout 100 $S/t/opencl-tests box_filter_fast --test-threads 1 > $R/opencl-nvidia-box-tests.log 2>&1
echo "opencl box tests on NVIDIA rc=$? at $(( $(date +%s) - T0 )) s"; grep -E "^test |test result" $R/opencl-nvidia-box-tests.log | tail -8
rm -rf $R/*/plots $R/*/report.html
tar cJf $OUT/r383.tar.xz -C /tmp r383; ls -la $OUT
