#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gk.yaml .gpu/me/gk.sh $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 300 $S/dspbench run .gpu/me/gk.yaml --device opencl=NVIDIA --machine h100 --out $R/gk > $R/gk.log 2>&1
echo "run rc=$?"; grep -i "mismatch\|error" $R/gk.log | head -3 | cut -c1-200
python3 -c "
import json,sys
for l in open('$R/gk/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(r['backend'][:6], p['width'], p['window'], p.get('max_registers','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'])
"
timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter/fast > $R/selftest-box.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest-box.txt; grep -i "fail" $R/selftest-*.txt | grep -v " 0 failed" | head -10
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
