#!/bin/bash
# Session 11, call 80: CUDA fft stockham 2^15 folded with the exchange whole against split, cuFFT beside.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/ij.sh .gpu/me/foldx.yaml $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/dspbench run .gpu/me/foldx.yaml --machine h100 --out $R/foldx > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log
python3 -c "
import json
for l in open('$R/foldx/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['variant'][:8], p['size'], p['batch'], p.get('exchange','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('shared_mem_bytes',''), (r.get('reason') or '')[:150])
" | sort -k2,2n -k3,3n -k1,1
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
