#!/bin/bash
# Session 12, call 87: Nsight Compute on the u8 box filter's tensor-core form (8K, m = 17): speed of light, warp
# states, scheduler, and stall samples per SASS instruction.
cd "$(dirname "$0")/../.." || exit 1
S=/tmp/mestage; rm -rf $S; mkdir -p $S; tar xJf .gpu/me/bin.tar.xz -C $S || exit 1
R=/tmp/res; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
cp .gpu/me/jc.sh .gpu/me/p1.yaml $R/
NCU=$(ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | head -1)
timeout 200 $NCU --target-processes all -k regex:"^box_filter_fast_mma_u8\$" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SourceCounters --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -o $R/mma17 $S/dspbench run .gpu/me/p1.yaml --out $R/p1 > $R/ncu-mma-17.txt 2>&1
echo "ncu rc=$?"
$NCU -i $R/mma17.ncu-rep --page details --print-details all > $R/mma17-details.txt 2>&1
grep -E "Duration|Throughput|Issued Warp|Eligible Warps|Active Warps|No Eligible|Stall|Occupancy|Registers|Pipe|Tensor|Bank|Executed Ipc|L2 Hit|Mem Busy|DRAM" $R/mma17-details.txt | head -60 | cut -c1-160
$NCU -i $R/mma17.ncu-rep --page source --csv --print-source sass > $R/mma17-sass.csv 2>&1
echo "source rc=$? $(wc -l < $R/mma17-sass.csv) lines"
python3 - "$R/mma17-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[0]
print([h for h in hdr][:40])
def col(name):
    for i, h in enumerate(hdr):
        if h.startswith(name):
            return i
    return None
src = col("Source"); samp = col("Warp Stall Sampling (All")
ex = col("Instructions Executed")
print("cols", src, samp, ex)
if samp is not None:
    data = []
    for r in rows[1:]:
        try:
            data.append((float(r[samp] or 0), r[src], r[ex] if ex is not None else ""))
        except (ValueError, IndexError):
            pass
    tot = sum(d[0] for d in data)
    print("total samples", tot, "instructions", len(data))
    for s, text, e in sorted(data, reverse=True)[:40]:
        print("%6.1f%%  %-70s %s" % (100 * s / tot, text[:70], e))
PY
rm -rf $R/*/plots $R/*/report.html
tar czf $OUT/results.tar.gz -C $R .
