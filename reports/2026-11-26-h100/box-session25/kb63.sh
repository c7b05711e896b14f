#!/bin/bash
# Session 25, call 257: band tables on both GPU backends (CUDA where cp.async stages, OpenCL likewise): (1) the CUDA
# box tests; (2) the OpenCL box tests on NVIDIA's OpenCL; (3) box-final.yaml (scenarios/opencl-cuda.yaml's box
# experiments) old binary / new / old / new; (4) the box selftest on both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kb63.sh .gpu/me/box-final.yaml $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 150 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1; echo "cuda box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/cuda-tests.txt | head -8 | cut -c1-1500
T0=$(date +%s)
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=4 box > $R/opencl-tests.txt 2>&1; echo "opencl box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/opencl-tests.txt | head -8 | cut -c1-1500
for pass in 1 2; do
  for k in old new; do
    B=$S/dspbench; [ $k = old ] && B=$S/dspbench_old
    T0=$(date +%s)
    DSPBENCH_REQUIRE=cuda,opencl timeout 150 $B run .gpu/me/box-final.yaml --device opencl=NVIDIA --machine h100 --out $R/$k.$pass > $R/run-$k.$pass.log 2>&1
    echo "run $k.$pass rc=$? in $(( $(date +%s) - T0 )) s"; grep -i "error\|mismatch\|fail" $R/run-$k.$pass.log | head -3 | cut -c1-600
    python3 scripts/opencl-cuda-ratios.py $R/$k.$pass > $R/ratios-$k.$pass.txt 2>&1
  done
done
python3 - $R <<'PY' | tee $R/summary.txt
import json, os, sys, statistics as st
R = sys.argv[1]
rows = {}
for k in ["old", "new"]:
    for p in [1, 2]:
        for line in open(os.path.join(R, f"{k}.{p}", "results.jsonl")):
            r = json.loads(line); q = r["params"]
            key = (r["backend"], q["dtype"], f"{q['width']}x{q['height']}", q["window"])
            km = r.get("kernel_ms") or {}
            ok = r["status"] == "ok" and r.get("verified")
            rows.setdefault(key, {}).setdefault(k, []).append(km.get("median", 0) if ok else float("nan"))
print("backend dtype image m | old ms | new ms | new/old")
for key in sorted(rows):
    o, n = rows[key].get("old", []), rows[key].get("new", [])
    print(*key, "|", " ".join(f"{x:.5f}" for x in o), "|", " ".join(f"{x:.5f}" for x in n), "| %.3f" % (st.median(n) / st.median(o)))
PY
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
