#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gf.yaml .gpu/me/gf.sh $R/
for v in u2 u1 b2 b3; do
  export DSPBENCH_KERNELS=.gpu/me/k-$v
  timeout 130 $S/dspbench run .gpu/me/gf.yaml --machine h100 --out $R/gf-$v > $R/gf-$v.log 2>&1
  echo "== $v rc=$?"; grep -i "mismatch\|error" $R/gf-$v.log | head -3 | cut -c1-200
  python3 -c "
import json,sys
for l in open('$R/gf-'+sys.argv[1]+'/results.jsonl'):
    r=json.loads(l); e=r['exec']; p=r['params']; k=r['kernel_ms']
    print(p['dtype'], p['window'], p.get('strips','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']) if 'ci_low' in k else '', e['grid'], e['registers'], e['local_mem_bytes'])
" $v
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
