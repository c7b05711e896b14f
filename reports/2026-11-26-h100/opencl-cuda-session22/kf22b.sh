#!/bin/bash
# Session 22's final run on the head (binary of the G = 3 staging commit): (1) the CUDA box tests; (2) ab36.yaml, the
# head (embedded) against the kernels before it (kprev), alternating, twice; (3) scenarios/opencl-cuda.yaml; (4) the box
# selftest on both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
K=/tmp/kab; rm -rf $K; mkdir -p $K; tar xJf .gpu/me/kab.tar.xz -C $K || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf22b.sh .gpu/me/ab36.yaml $R/
T0=$(date +%s)
echo "cuda box tests: in the next call (the carry limit)"
for pass in 1 2; do
  for k in emb kprev; do
    if [ $k = emb ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=$K/$k; fi
    DSPBENCH_REQUIRE=cuda timeout 100 $S/dspbench run .gpu/me/ab36.yaml --machine h100 --out $R/$k.$pass > $R/run-$k.$pass.log 2>&1
    echo "run $k.$pass rc=$?"; grep -i "error\|mismatch\|fail" $R/run-$k.$pass.log | head -3 | cut -c1-600
  done
done
unset DSPBENCH_KERNELS
for k in emb kprev; do echo "== $k"; python3 .gpu/me/summ_ab28.py $R/$k.1 $R/$k.2 | cut -c1-200 | tee $R/summary-$k.txt; done
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 300 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda > $R/ratios.txt 2>&1; grep -E "floor|\"window\"" $R/ratios.txt | grep -v f32 | cut -c1-200
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$?"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
