#!/bin/bash
# Session 20's second final run: 32 points a thread / work-item also in contiguous batches from 256 points that fill the GPU
# (both GPU backends). First ab24.yaml twice (1024 .. 4096 at 16 and 32, where the rule was level or unmeasured), then
# scenarios/opencl-cuda.yaml on NVIDIA's OpenCL and CUDA (cuFFT beside) and the selftest of fft `stockham` and conv1d
# `fft*` on both GPU backends, all on one binary (the committed sources; no kernel source changed since call-198).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kf20b.sh .gpu/me/ab24.yaml .gpu/me/summ20.py $R/
runs=""
for pass in 1 2; do
  DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench run .gpu/me/ab24.yaml --device opencl=NVIDIA --machine h100 --out $R/p$pass > $R/run-p$pass.log 2>&1
  echo "run p$pass rc=$?"; tail -1 $R/run-p$pass.log
  runs="$runs $R/p$pass"
done
python3 .gpu/me/summ20.py $runs | sed 's/ rNone pNone//g; s/ pNone//g' | tee $R/summary.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 360 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "final run rc=$? in $(( $(date +%s) - T0 )) s"; tail -1 $R/run.log
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda 2>&1 | grep -E '^[0] ' | cut -c1-220
for f in fft/stockham conv1d/fft; do
  DSPBENCH_REQUIRE=cuda,opencl timeout 90 $S/dspbench selftest --backends cuda,opencl --filter $f > $R/selftest-${f%%/*}.txt 2>&1; echo "selftest $f rc=$?"; tail -n 1 $R/selftest-${f%%/*}.txt
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
