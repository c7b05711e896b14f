#!/bin/bash
# Session 29, call 293: the final binary (copies of a cell's bytes rounded up to whole pages): the CUDA and OpenCL
# copy tests on the GPU, then scenarios/opencl-cuda.yaml (every workload's best variant, CUDA and NVIDIA's OpenCL).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kb100.sh $R/
DSPBENCH_REQUIRE=cuda timeout 60 $S/cuda_tests copy --test-threads 1 > $R/cuda-tests-copy.txt 2>&1; echo "cuda copy tests rc=$?"; grep "test result\|panicked" $R/cuda-tests-copy.txt
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=opencl timeout 60 $S/opencl_tests bandwidth --test-threads 1 > $R/opencl-tests-copy.txt 2>&1; echo "opencl copy tests rc=$?"; grep "test result\|panicked" $R/opencl-tests-copy.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 420 $S/dspbench run scenarios/opencl-cuda.yaml --device opencl=NVIDIA --machine h100 --out $R/opencl-cuda > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; tail -2 $R/run.log | cut -c1-300; grep -i "mismatch\|failed" $R/run.log | head -5 | cut -c1-300
python3 scripts/opencl-cuda-ratios.py $R/opencl-cuda > $R/opencl-cuda/ratios.txt 2>&1
python3 - $R/opencl-cuda <<'PY' | tee $R/copies.txt
import json, sys
seen = set()
for line in open(f"{sys.argv[1]}/results.jsonl"):
    r = json.loads(line); c = r.get("copy_of_bytes")
    if not c or r["status"] != "ok": continue
    key = (r["backend"], c["bytes"])
    if key in seen or c["bytes"] < 30e6: continue
    seen.add(key)
    print(r["backend"], r["workload"], c["bytes"], round(c["gbps"]), c["method"][:60])
PY
grep -n "under 50% of their roof" $R/opencl-cuda/report.md | cut -c1-200
xz -9 $R/opencl-cuda/results.jsonl $R/opencl-cuda/results.csv $R/opencl-cuda/planned.jsonl $R/run.log 2>/dev/null
rm -rf $R/opencl-cuda/plots $R/opencl-cuda/report.html
mkdir -p $OUT && tar cJf $OUT/call.tar.xz -C $R .
