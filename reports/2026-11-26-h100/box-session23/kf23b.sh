#!/bin/bash
# Session 23, the deeper walk: (1) the CUDA box tests; (2) ab47.yaml, embedded against old (DSPBENCH_KERNELS: the
# kernels before it), alternating twice; (3) box-final.yaml (scenarios/opencl-cuda.yaml's box experiments) with
# NVIDIA's OpenCL beside.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kab; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kab.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf23b.sh .gpu/me/ab47.yaml .gpu/me/box-final.yaml $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 150 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1; echo "cuda box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/cuda-tests.txt | head -6 | cut -c1-1500
for pass in 1 2; do
  for k in emb old; do
    if [ $k = emb ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=$K/$k; fi
    DSPBENCH_REQUIRE=cuda timeout 100 $S/dspbench run .gpu/me/ab47.yaml --machine h100 --out $R/$k.$pass > $R/run-$k.$pass.log 2>&1
    echo "run $k.$pass rc=$?"; grep -i "error\|mismatch\|fail" $R/run-$k.$pass.log | head -3 | cut -c1-600
  done
done
unset DSPBENCH_KERNELS
for k in emb old; do echo "== $k"; python3 .gpu/me/summ_ab28.py $R/$k.1 $R/$k.2 | cut -c1-200 | tee $R/summary-$k.txt; done
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench run .gpu/me/box-final.yaml --device opencl=NVIDIA --machine h100 --out $R/box-final > $R/run.log 2>&1
echo "box final rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/box-final > $R/ratios.txt 2>&1; grep -E "floor|\"window\"" $R/ratios.txt | cut -c1-200
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
