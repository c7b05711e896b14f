#!/bin/bash
# Session 13, call 107: the f32 box filter, run starts and column starts ablated.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ga.sh .gpu/me/ga.yaml $R/
for v in none runstart colstart both none2; do
  if [ -d .gpu/me/k-$v ]; then export DSPBENCH_KERNELS=.gpu/me/k-$v; else unset DSPBENCH_KERNELS; fi
  timeout 100 $S/dspbench run .gpu/me/ga.yaml --machine h100 --out $R/ga-$v > $R/ga-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json,sys
for l in open('$R/ga-'+sys.argv[1]+'/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(p['width'], p['window'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'])
" $v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
