#!/bin/bash
# Session 12, call 100: OpenCL's u8 tensor-core box filter in one-wave strips for 3 groups a compute unit.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/jp.sh .gpu/me/box-strips.yaml $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench run .gpu/me/box-strips.yaml --device opencl=NVIDIA --machine h100 --out $R/box-strips > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log
python3 -c "
import json
for l in open('$R/box-strips/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], p['width'], p['window'], p.get('strips','default'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('strips', e.get('grid','')))
" | sort -k2,2n -k3,3n -k1 -k4
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
