#!/bin/bash
# Session 14, call 133: the u8 box filter's three forms past m = 49 after pass 1's change (the final run's binary),
# widths 7680 / 4096 / 3840 x heights 4320 / 4096 / 2160 / 352, both GPU backends: whether the tensor cores should
# take m > 49 by default.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/kf.sh .gpu/me/wide.yaml $R/
DSPBENCH_REQUIRE=cuda,opencl timeout 400 $S/dspbench run .gpu/me/wide.yaml --device opencl=NVIDIA --machine h100 --out $R/wide > $R/wide.log 2>&1
echo "wide rc=$?"; tail -1 $R/wide.log
python3 - $R/wide/results.jsonl <<'PY'
import json, sys
t = {}
for l in open(sys.argv[1]):
    r = json.loads(l); p = r['params']
    t.setdefault((r['backend'][:6], p['width'], p['height'], p['window']), {})[p['form']] = (r.get('kernel_ms') or {'median': 0})['median']
for k in sorted(t):
    v = t[k]; best = min(v, key=v.get)
    print(*k, ' '.join('%s %.4f' % (f, v[f]) for f in ('mma', 'ring', 'words') if f in v), 'best', best, 'mma/best %.3f' % (v['mma'] / v[best]))
PY
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
