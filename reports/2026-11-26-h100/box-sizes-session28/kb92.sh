#!/bin/bash
# Session 28, call 285: scenarios/box-sizes.yaml (the box filter `fast` on every common image of 8 MP and more, u8 and
# f32, m = 5 .. 63) with the release binary of 28ddfe0 (the committed kernels), CUDA and NVIDIA's OpenCL in one run.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/headstage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/binhead.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/kb92.sh $R/
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 480 $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
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
for line in open(f"{d}/results.jsonl"):
    r = json.loads(line); q = r["params"]
    if r["status"] != "ok":
        print(r["backend"], q, r["status"], r.get("reason")); continue
    size = 1 if q.get("dtype") == "u8" else 4
    b = 2 * q["width"] * q["height"] * size
    km = r["kernel_ms"]
    share = 100 * b / (km["median"] * 1e6) / roof.get((r["backend"], r["device"]), float("nan"))
    print(r["backend"], q.get("dtype"), f'{q["width"]}x{q["height"]}', q["window"], f'{km["median"]:.5f}', f'[{km["ci_low"]:.5f}-{km["ci_high"]:.5f}]', f"{share:.1f}%", "ok" if r.get("verified") else "UNVERIFIED")
PY
xz -9 $R/box-sizes/results.jsonl $R/box-sizes/results.csv $R/box-sizes/planned.jsonl $R/run.log 2>/dev/null
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
mkdir -p $OUT && tar cJf $OUT/call.tar.xz -C $R .
