#!/bin/bash
# Session 12, call 102, after the review: OpenCL's two band builders as one, CUDA's box `fast` host with one
# construction for every form. The CUDA test binary's box tests, the box selftest of both GPU backends, and the u8
# box cells of the final run on both.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/jr.sh .gpu/me/box-review.yaml $R/
: tests and selftest ran in call 102a



DSPBENCH_REQUIRE=cuda,opencl timeout 150 $S/dspbench run .gpu/me/box-review.yaml --device opencl=NVIDIA --machine h100 --out $R/box-review > $R/run.log 2>&1
echo "run rc=$?"; tail -1 $R/run.log
python3 -c "
import json
for l in open('$R/box-review/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    e=r.get('exec',{})
    print(r['backend'][:6], p['width'], p['window'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'], e.get('entries', e.get('path','')))
" | sort -k2,2n -k3,3n -k1
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
