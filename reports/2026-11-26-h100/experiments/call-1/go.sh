#!/bin/bash
# Session 7, call 1: NVIDIA OpenCL stack frames before/after the DFT macro; FFT selftest; fft7.yaml with the
# new kernels, then its OpenCL cells with the old kernels (HEAD's kernels/).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
C12="-DLOG2_SIZE=12 -DCOLUMNS=1 -DPOINTS_PER_THREAD=16"
for k in new old; do
  [ $k = new ] && K= || K=$S/old/kernels
  for opts in "$C12" "$C12 -DREGISTERS=1 -DSPLIT=0" "-DLOG2_SIZE=10 -DCOLUMNS=4 -DPOINTS_PER_THREAD=16"; do
    echo "### $k $opts" >> $R/stack.txt
    env ${K:+DSPBENCH_KERNELS=$K} timeout 30 $S/build_log fft_stockham $opts -cl-nv-verbose 2>&1 | grep -E "stack|Used|error" >> $R/stack.txt
  done
done
cat $R/stack.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 200 $S/dspbench selftest --backends cuda,opencl --filter fft/ > $R/selftest-fft.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; tail -8 $R/selftest-fft.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 240 $S/dspbench run .gpu/me/fft7.yaml --device opencl=NVIDIA --machine h100 --out $R/new > $R/new.log 2>&1
echo "run new rc=$? in $(( $(date +%s) - T0 )) s"
grep -E "^\[" $R/new.log | sed 's/verified.*//' | cut -c1-140
T0=$(date +%s)
DSPBENCH_KERNELS=$S/old/kernels DSPBENCH_REQUIRE=opencl timeout 120 $S/dspbench run .gpu/me/fft7.yaml --backends opencl --device opencl=NVIDIA --machine h100 --out $R/old > $R/old.log 2>&1
echo "run old rc=$? in $(( $(date +%s) - T0 )) s"
grep -E "^\[" $R/old.log | sed 's/verified.*//' | cut -c1-140
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
