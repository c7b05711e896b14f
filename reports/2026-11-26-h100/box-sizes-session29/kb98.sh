#!/bin/bash
# Session 29, call 291: the release binary of the copy of each cell's own bytes, OpenCL's copies timed in batches
# as its cells are: (1) the OpenCL copy tests on NVIDIA's OpenCL; (2) scenarios/box-sizes.yaml, CUDA and
# NVIDIA's OpenCL (the committed report).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kb98.sh $R/
DSPBENCH_OPENCL_PLATFORM=NVIDIA DSPBENCH_REQUIRE=opencl timeout 120 $S/opencl_tests bandwidth --test-threads 1 > $R/opencl-tests-copy.txt 2>&1; echo "opencl copy tests rc=$?"; grep "test result\|panicked" $R/opencl-tests-copy.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 300 $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; grep -i "error\|mismatch\|fail\|warn" $R/run.log | head -5 | cut -c1-400
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 - $R/box-sizes <<'PY' | tee $R/shares.txt
import json, sys
d = sys.argv[1]
m = json.load(open(f"{d}/machine.json"))
roof = {}
for b in m["backends"]:
    for i, name in enumerate(b.get("devices") or []):
        v = (b.get("details") or {}).get(f"device{i}.copy_gbps")
        if v:
            roof[(b["name"], name)] = float(v)
print("roofs", roof)
print("backend dtype image m kernel_ms [95%] share_of_roof copy_of_bytes_gbps [95%] share_of_that_copy")
for line in open(f"{d}/results.jsonl"):
    r = json.loads(line); q = r["params"]
    if r["status"] != "ok":
        print(r["backend"], q, r["status"], r.get("reason")); continue
    km = r["kernel_ms"]; gbps = r["bytes"] / (km["median"] * 1e6)
    c = r.get("copy_of_bytes") or {}
    cg = c.get("gbps", float("nan"))
    print(r["backend"], q.get("dtype"), f'{q["width"]}x{q["height"]}', q["window"], f'{km["median"]:.5f}', f'[{km["ci_low"]:.5f}-{km["ci_high"]:.5f}]',
          f'{100 * gbps / roof.get((r["backend"], r["device"]), float("nan")):.1f}%', f'{cg:.0f} [{c.get("gbps_low", 0):.0f}-{c.get("gbps_high", 0):.0f}]', f'{100 * gbps / cg:.1f}%',
          "ok" if r.get("verified") else "UNVERIFIED", r["exec"].get("copy_of_bytes_failed", ""))
PY
xz -9 $R/box-sizes/results.jsonl $R/box-sizes/results.csv $R/box-sizes/planned.jsonl $R/run.log 2>/dev/null
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
mkdir -p $OUT && tar cJf $OUT/call.tar.xz -C $R .
