#!/bin/bash
# Session 25, call 261: the session's final box run (tables where cp.async stages, the previous tile stored under the
# warpgroup products, NVIDIA's OpenCL's 8-byte pass-1 loads at G = 3 beside them): (1) the CUDA box tests and the
# OpenCL box tests on NVIDIA's OpenCL; (2) box-final.yaml (scenarios/opencl-cuda.yaml's box experiments), the
# session-24 binary (s24) / new / s24 / new; (3) the box selftest on both GPU backends.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kb67.sh .gpu/me/box-final.yaml $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda timeout 150 $S/cuda_tests --test-threads=2 box > $R/cuda-tests.txt 2>&1; echo "cuda box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/cuda-tests.txt | head -8 | cut -c1-1500
T0=$(date +%s)
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=opencl timeout 200 $S/opencl_tests --test-threads=4 box > $R/opencl-tests.txt 2>&1; echo "opencl box tests rc=$? in $(( $(date +%s) - T0 )) s"; grep -E "test result|panicked" -A3 $R/opencl-tests.txt | head -8 | cut -c1-1500
for pass in 1 2; do
  for k in s24 new; do
    B=$S/dspbench; [ $k = s24 ] && B=$S/dspbench_s24
    T0=$(date +%s)
    DSPBENCH_REQUIRE=cuda,opencl timeout 150 $B run .gpu/me/box-final.yaml --device opencl=NVIDIA --machine h100 --out $R/$k.$pass > $R/run-$k.$pass.log 2>&1
    echo "run $k.$pass rc=$? in $(( $(date +%s) - T0 )) s"; grep -i "error\|mismatch\|fail" $R/run-$k.$pass.log | head -3 | cut -c1-600
    python3 scripts/opencl-cuda-ratios.py $R/$k.$pass > $R/ratios-$k.$pass.txt 2>&1
  done
done
python3 - $R <<'PY' | tee $R/summary.txt
import json, os, sys, statistics as st
R = sys.argv[1]
ks = ["s24", "new"]
rows, roofs = {}, {}
for k in ks:
    for p in [1, 2]:
        m = json.load(open(os.path.join(R, f"{k}.{p}", "machine.json")))
        roof = {}
        for b in m["backends"]:
            d = b.get("details", {})
            for key, v in d.items():
                if key.endswith("copy_gbps") and "NVIDIA" in json.dumps(d):
                    roof.setdefault(b.get("name", "?"), float(v))
        roofs[(k, p)] = roof
        for line in open(os.path.join(R, f"{k}.{p}", "results.jsonl")):
            r = json.loads(line); q = r["params"]
            key = (r["backend"], q["dtype"], f"{q['width']}x{q['height']}", q["window"])
            km = r.get("kernel_ms") or {}
            ok = r["status"] == "ok" and r.get("verified")
            rows.setdefault(key, {}).setdefault(k, []).append(km.get("median", 0) if ok else float("nan"))
print("roofs", roofs)
for key in sorted(rows):
    s, n = rows[key]["s24"], rows[key]["new"]
    print(*key, "|", " ".join(f"{x:.5f}" for x in s), "|", " ".join(f"{x:.5f}" for x in n), "| new/s24 %.3f" % (st.median(n) / st.median(s)))
PY
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 100 $S/dspbench selftest --backends cuda,opencl --filter box-filter > $R/selftest-box.txt 2>&1; echo "selftest box rc=$? in $(( $(date +%s) - T0 )) s"; tail -n 1 $R/selftest-box.txt
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
