#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/ge.yaml .gpu/me/ge.sh $R/
for v in none u2 u3; do
  if [ $v = none ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  timeout 110 $S/dspbench run .gpu/me/ge.yaml --machine h100 --out $R/ge-$v > $R/ge-$v.log 2>&1
  echo "== $v rc=$?"; grep "pass 4 of 4" $R/ge-$v.log | sed 's/.*dtype=\([a-z0-9]*\) height=\([0-9]*\).*width=\([0-9]*\) window=\([0-9]*\)\]: \(.*\)/\1 \3x\2 m=\4 \5/' | cut -c1-50; grep -i "mismatch\|error" $R/ge-$v.log | head -3 | cut -c1-200
done
for v in none u2 u3; do python3 -c "
import json,sys
for l in open('$R/ge-'+sys.argv[1]+'/results.jsonl'):
    r=json.loads(l); e=r['exec']; print(sys.argv[1], r['params']['window'], e['grid'], e['registers'], e['local_mem_bytes'])
" $v | head -2; done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
