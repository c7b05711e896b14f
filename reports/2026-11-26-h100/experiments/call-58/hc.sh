#!/bin/bash
# The ring form with its loads issued a step earlier (before the barrier ending the step before);
# SASS of the ring kernel (nvcc, the pragma macros spelled out) to count its instructions.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hc.sh $R/
NVCC=$(ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
sed -e 's/#pragma unroll WALK_UNROLL/#pragma unroll 32/' -e 's/#pragma unroll U8_UNROLL/#pragma unroll 8/' kernels/cuda/box_filter_fast.cu > $S/bf.cu
cp kernels/cuda/image_common.cuh $S/
(cd $S && $NVCC -cubin -arch=sm_90 -O3 -DDTYPE_U8 -o bf.cubin bf.cu > $R/nvcc.txt 2>&1; echo "nvcc rc=$?"; /usr/local/cuda/bin/cuobjdump -sass bf.cubin > $R/sass.txt 2>&1; echo "cuobjdump rc=$?")
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests --test-threads=1 box_filter > $R/cuda-tests.txt 2>&1
echo "cuda tests rc=$?"; grep "test result\|panicked" $R/cuda-tests.txt | head -3
DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench run .gpu/me/hb.yaml --machine h100 --out $R/hc > $R/hc.log 2>&1
echo "run rc=$?"
python3 -c "
import json
for l in open('$R/hc/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['window'], p.get('form','-'), '%.4f'%k['median'], r['exec'].get('registers'), r['status'])
"
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
