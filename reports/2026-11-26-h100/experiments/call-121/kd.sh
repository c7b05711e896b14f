#!/bin/bash
# Session 13, call 121: the OpenCL test binary on the machine's PoCL 5.0 (call 120: it aborted in
# pocl_release_dlhandle_cache): box and fft tests three times on the default threads, three times on one.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; [ -x $S/opencl_tests ] || { rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1; }
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/kd.sh $R/
ls ~/.cache/pocl 2>/dev/null | head -3; echo "POCL_CACHE_DIR=$POCL_CACHE_DIR"
for k in 1 2 3; do for f in box fft; do
  timeout 120 $S/opencl_tests $f > $R/t-$f-$k.txt 2>&1; echo "threads default $f $k rc=$? $(grep -c 'dlhandle' $R/t-$f-$k.txt) $(grep 'test result' $R/t-$f-$k.txt)"
done; done
for k in 1 2 3; do for f in box fft; do
  timeout 150 $S/opencl_tests $f --test-threads=1 > $R/t1-$f-$k.txt 2>&1; echo "one thread $f $k rc=$? $(grep -c 'dlhandle' $R/t1-$f-$k.txt) $(grep 'test result' $R/t1-$f-$k.txt)"
done; done
tar czf $OUT/results.tar.gz -C $R .
