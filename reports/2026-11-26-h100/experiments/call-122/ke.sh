#!/bin/bash
# Session 13, call 122: the OpenCL test binary as it was before this session (13f330f) on the machine's PoCL 5.0,
# box and fft tests three times on the default threads: does PoCL's dlhandle abort (calls 120, 121) predate the change?
cd "$(dirname "$0")/../.." || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/ke.sh $R/
xz -dc .gpu/me/old_tests.xz > /tmp/old_tests && chmod +x /tmp/old_tests
for k in 1 2 3; do for f in box fft; do
  timeout 150 /tmp/old_tests $f > $R/old-$f-$k.txt 2>&1; echo "before the session, $f $k rc=$? $(grep -c 'dlhandle' $R/old-$f-$k.txt) $(grep 'test result' $R/old-$f-$k.txt)"
done; done
tar czf $OUT/results.tar.gz -C $R .
