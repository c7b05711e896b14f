#!/bin/bash
# Final: stack/register diagnostics of the register kernel (and variants), selftest, scenario, variant timings.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/ocls; R=/tmp/res; rm -rf $S $R; mkdir -p $S $R
tar xJf .gpu/ocl/bin.tar.xz -C $S || exit 1
tar xJf .gpu/ocl/kx.tar.xz -C $S || exit 1
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
C12="-DREGISTERS=1 -DLOG2_SIZE=12 -DCOLUMNS=1 -DPOINTS_PER_THREAD=16 -DSPLIT=0 -DREGISTER_CAP=64 -cl-nv-maxrregcount=64"
for v in base va vb vc ve; do
  [ $v = base ] && K= || K=$S/kx/$v
  echo "### $v"; env ${K:+DSPBENCH_KERNELS=$K} timeout 30 $S/build_log fft_stockham $C12 -cl-nv-verbose 2>&1 | tee $R/regs-$v.txt | grep -E "stack|Used"
done
T0=$(date +%s)
DSPBENCH_REQUIRE=opencl timeout ${SELF_S:-120} $S/dspbench selftest --backends opencl --filter fft/ > $R/selftest-fft.txt 2>&1
echo "selftest rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "stockham|selftest" $R/selftest-fft.txt; grep -iE "fail|mismatch" $R/selftest-fft.txt | head -8
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout ${RUN_S:-150} $S/dspbench run .gpu/ocl/scenario.yaml --device opencl=NVIDIA --machine h100 --out $R/ocl > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"
grep -E "^\[" $R/run.log | sed 's/(median.*verified/verified/' | cut -c1-150
grep -vE "^\[" $R/run.log | tail -3
for v in va vb vc ve; do
  if grep -q " 0 bytes stack frame" $R/regs-$v.txt; then
    DSPBENCH_KERNELS=$S/kx/$v DSPBENCH_REQUIRE=opencl timeout 40 $S/dspbench run .gpu/ocl/variant.yaml --device opencl=NVIDIA --machine h100 --out $R/var-$v > $R/var-$v.log 2>&1
    echo "variant $v rc=$?"; grep -E "^\[" $R/var-$v.log | cut -c1-150
  fi
done
cp .gpu/ocl/*.yaml .gpu/ocl/go.sh $R/
tar czf $OUT/results.tar.gz -C $R .
