#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gg.yaml .gpu/me/gg.sh $R/
DSPBENCH_BINARY_DIR=$R $S/build_log box_filter_fast -DDTYPE_F32 -DNV_PTX -DREGISTER_CAP=128 -cl-nv-maxrregcount=128 -cl-nv-verbose > $R/build-f32.txt 2>&1
DSPBENCH_BINARY_DIR=$R $S/build_log box_filter_fast -DDTYPE_U8 -DNV_PTX -cl-nv-verbose > $R/build-u8.txt 2>&1
grep -h "fused\|Used\|spill\|rror" $R/build-*.txt | head -20
DSPBENCH_REQUIRE=cuda,opencl timeout 300 $S/dspbench run .gpu/me/gg.yaml --device opencl=NVIDIA --machine h100 --out $R/gg > $R/gg.log 2>&1
echo "run rc=$?"; grep -i "mismatch\|error" $R/gg.log | head -3 | cut -c1-200
python3 -c "
import json,sys
for l in open('$R/gg/results.jsonl'):
    r=json.loads(l); e=r['exec']; p=r['params']; k=r['kernel_ms']
    print(r['backend'][:6], p['dtype'], p['width'], p['window'], '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), e.get('grid', e.get('global','')), e.get('registers',''), e.get('strips',''), r['status'])
"
timeout 200 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest-box.txt; grep -i "fail" $R/selftest-*.txt | grep -v " 0 failed" | head -10
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
