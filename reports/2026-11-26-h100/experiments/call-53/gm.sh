#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gm.yaml .gpu/me/gm.sh $R/
for v in none a1 a2; do
  if [ $v = none ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  timeout 100 $S/dspbench run .gpu/me/gm.yaml --machine h100 --out $R/gm-$v > $R/gm-$v.log 2>&1
  echo "== $v rc=$?"; grep -i "mismatch\|error" $R/gm-$v.log | head -3 | cut -c1-200
  python3 -c "
import json,sys
for l in open('$R/gm-'+sys.argv[1]+'/results.jsonl'):
    r=json.loads(l); e=r['exec']; p=r['params']; k=r['kernel_ms']
    print(p['width'], p['window'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), p.get('strips',''), r['status'])
" $v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
