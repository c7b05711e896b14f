#!/bin/bash
# Session 33, call 318: the f32 box filter fed by the copy engine (box_filter_fast_tma.cu), CUDA's f32 default on sm_90.
# (1) the CUDA box tests, the copy-engine form's among them; (2) its default rule either side of it, both forms
# in the same rounds; (3) the box selftest on CUDA; (4)
# scenarios/box-sizes.yaml on CUDA and NVIDIA's OpenCL (the committed report).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/stage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
cp .gpu/me/k318.sh $R/
DSPBENCH_REQUIRE=cuda timeout 200 $S/cuda_tests box --test-threads 1 > $R/cuda-tests-box.txt 2>&1; echo "cuda box tests rc=$?"; grep "test result\|panicked\|FAILED" $R/cuda-tests-box.txt | head
DSPBENCH_REQUIRE=cuda timeout 100 $S/dspbench run .gpu/me/scen/tmarule.yaml --machine h100 --out $R/rule > $R/rule.log 2>&1; echo "rule rc=$?"; python3 scripts/tunable-ratios.py $R/rule | tee $R/rule.txt; rm -rf $R/rule/plots $R/rule/report.html; xz -9 $R/rule/results.jsonl $R/rule/results.csv $R/rule/planned.jsonl 2>/dev/null
DSPBENCH_REQUIRE=cuda timeout 120 $S/dspbench selftest --backends cuda --filter box-filter/fast > $R/selftest-box.txt 2>&1; echo "selftest rc=$?"; tail -3 $R/selftest-box.txt
T0=$(date +%s)
DSPBENCH_REQUIRE=cuda,opencl timeout 420 $S/dspbench run scenarios/box-sizes.yaml --device opencl=NVIDIA --machine h100 --out $R/box-sizes > $R/run.log 2>&1
echo "run rc=$? in $(( $(date +%s) - T0 )) s"; grep -i "error\|mismatch\|fail\|warn" $R/run.log | head -5 | cut -c1-400
python3 scripts/opencl-cuda-ratios.py $R/box-sizes > $R/box-sizes/ratios.txt 2>&1
python3 - $R/box-sizes <<'PY' > $R/shares.txt
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
print("backend dtype image m pdl kernel_ms [95%] share_of_roof copy_of_bytes_gbps [95%] share_of_that_copy")
for line in open(f"{d}/results.jsonl"):
    r = json.loads(line); q = r["params"]
    if r["status"] != "ok":
        print(r["backend"], q, r["status"], r.get("reason")); continue
    km = r["kernel_ms"]; gbps = r["bytes"] / (km["median"] * 1e6)
    c = r.get("copy_of_bytes") or {}
    cg = c.get("gbps", float("nan"))
    print(r["backend"], q.get("dtype"), f'{q["width"]}x{q["height"]}', q["window"], q.get("pdl", q.get("f32_form", "-")), f'{km["median"]:.5f}', f'[{km["ci_low"]:.5f}-{km["ci_high"]:.5f}]',
          f'{100 * gbps / roof.get((r["backend"], r["device"]), float("nan")):.1f}%', f'{cg:.0f} [{c.get("gbps_low", 0):.0f}-{c.get("gbps_high", 0):.0f}]', f'{100 * gbps / cg:.1f}%',
          "ok" if r.get("verified") else "UNVERIFIED", r["exec"].get("launch", ""))
PY
grep -c UNVERIFIED $R/shares.txt
grep '^cuda' $R/shares.txt | cut -c1-150
cut -c1-300 $R/box-sizes/ratios.txt
xz -9 $R/box-sizes/results.jsonl $R/box-sizes/results.csv $R/box-sizes/planned.jsonl $R/run.log 2>/dev/null
rm -rf $R/box-sizes/plots $R/box-sizes/report.html
mkdir -p $OUT && tar cJf $OUT/call.tar.xz -C $R .
