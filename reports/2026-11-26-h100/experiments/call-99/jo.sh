#!/bin/bash
# Session 12, call 99: OpenCL's tensor-core box filter, its output stores: st.global.cs with a memory clobber (the
# kernel as committed), without the clobber (v1), plain stores (v2); CUDA beside in every run.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
cp .gpu/me/jo.sh .gpu/me/box-mma4.yaml $R/
for v in base v1 v2 base2; do
  if [ $v = base ] || [ $v = base2 ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=$PWD/.gpu/me/$v; fi
  DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench run .gpu/me/box-mma4.yaml --device opencl=NVIDIA --machine h100 --out $R/box-mma4-$v > $R/run-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/box-mma4-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r.get('kernel_ms') or {'median':0,'ci_low':0,'ci_high':0}
    print(r['backend'][:6], p['width'], p['window'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), r['status'])
" | sort -k2,2n -k3,3n -k1
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
