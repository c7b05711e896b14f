#!/bin/bash
# The ring form (edge pieces whole): Nsight Compute at 8K m = 31 (SM activity, stalls), then ablations
# (no loads in the loop, no column walk, no row sums; results wrong, times only).
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/hf.sh $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 150 $NCU --target-processes all -k regex:"^box_filter_fast_ring_u8\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats --metrics sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_ld.sum $S/dspbench run .gpu/me/hb1.yaml --out $R/hb1 > $R/ncu-ring-31.txt 2>&1
echo "ncu rc=$?"; grep -E "Duration|Throughput|sm__|smsp__|Issued Warp|Eligible|Stall (Wait|Barrier|Short|Long|Not Sel|Math|No Inst)|Issued Instructions " $R/ncu-ring-31.txt | head -40
for v in base nofetch nowalk norow; do
  if [ $v = base ]; then unset DSPBENCH_KERNELS; else export DSPBENCH_KERNELS=.gpu/me/k-$v; fi
  DSPBENCH_REQUIRE=cuda timeout 60 $S/dspbench run .gpu/me/hb.yaml --machine h100 --out $R/hf-$v > $R/hf-$v.log 2>&1
  echo "== $v rc=$?"
  python3 -c "
import json
for l in open('$R/hf-$v/results.jsonl'):
    r=json.loads(l); p=r['params']; k=r['kernel_ms']
    print(p['window'], p.get('form','-'), '%.4f'%k['median'], r['status'])
"
done
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
