#!/bin/bash
# Ring form variants: direct 16-byte stores of each lane's run (no stage, no row-warp barriers), and
# cp.async with an L2 256-byte prefetch hint; against the ring form as built and the word form.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hl.sh .gpu/me/hl.yaml $R/
for v in base direct l2; do
  if [ $v = base ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench run .gpu/me/hl.yaml --machine h100 --out $R/hl-$v > $R/hl-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/hl-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['width'], p['window'], p.get('form','-'), '%.4f'%k['median'], r['status'])
"
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
