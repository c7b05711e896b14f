#!/bin/bash
# Session 11, call 77: own CPU FFT against FFTW on the H100 host's Xeon pinned to one core, AVX-512 against AVX2.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/ih.sh .gpu/me/cpufft.yaml $R/
rm -rf /tmp/pyfx; mkdir -p /tmp/pyfx; tar xJf .gpu/me/pyf.tar.xz -C /tmp/pyfx
export PYTHONPATH=/tmp/pyfx/pyf
T0=$(date +%s)
DSPBENCH_REQUIRE=peers timeout 300 taskset -c 2,3 $S/dspbench run .gpu/me/cpufft.yaml --machine h100-host-2core --out $R/cpufft > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log
python3 -c "
import json
for l in open('$R/cpufft/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('wall_ms') or r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], r['variant'][:8], p['size'], p['batch'], r.get('isa'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], r.get('exec',{}).get('radices',''))
" | sort -k3,3n -k1,1 -k2,2
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
