#!/bin/bash
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/gn.yaml .gpu/me/gn.sh $R/
for cols in 4 2; do
DSPBENCH_BINARY_DIR=$R $S/build_log fft_stockham -DREGISTERS=1 -DLOG2_SIZE=12 -DCOLUMNS=$cols -DPOINTS_PER_THREAD=16 -DSPLIT=1 -DFOLD=0 -DHALVES=$((cols/4)) -DSTRIDED=1 -DIN_COLS=1 -DOUT_COLS=0 -DTWIDDLE=0 -DREGISTER_CAP=$((256/cols)) -cl-nv-maxrregcount=$((256/cols)) -cl-nv-verbose > $R/build-4096x$cols.txt 2>&1
grep -h "Used\|spill\|rror" $R/build-4096x$cols.txt | grep -v pocl | head -4
done
DSPBENCH_REQUIRE=cuda,opencl timeout 300 $S/dspbench run .gpu/me/gn.yaml --device opencl=NVIDIA --machine h100 --out $R/gn > $R/gn.log 2>&1
echo "run rc=$?"; grep -i "mismatch\|error" $R/gn.log | head -3 | cut -c1-200
python3 -c "
import json,sys
for l in open('$R/gn/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']; e=r['exec']
    print(r['backend'][:6], p['size'], p['batch'], p.get('columns','-'), '%.4f'%k['median'], '[%.4f-%.4f]'%(k['ci_low'],k['ci_high']), e.get('columns_x_threads',''), e.get('exchange',''), r['status'])
"
timeout 250 $S/dspbench selftest --backends opencl --filter fft/stockham > $R/selftest-fft.txt 2>&1
echo "selftest rc=$?"; tail -n 1 $R/selftest-fft.txt; grep -i "fail" $R/selftest-*.txt | grep -v " 0 failed" | head -10
rm -rf $R/*/plots $R/*/report.html $R/*.bin
tar czf $OUT/results.tar.gz -C $R .
