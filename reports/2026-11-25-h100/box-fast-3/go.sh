#!/bin/bash
# box u8: correctness + timings of variants (env knobs of the experimental build)
set -u
D=$(dirname "$0")
T0=$(date +%s)
mkdir -p /tmp/bx && tar xJf "$D/bin.tar.xz" -C /tmp/bx
B=/tmp/bx/dspbench
TB=$(ls /tmp/bx/dspbench_cuda-* 2>/dev/null | head -1)
R=/tmp/o; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1; cat $R/gpu.txt
left() { [ $(( $(date +%s) - T0 )) -lt ${LIMIT:-330} ]; }
st() { # selftest: name, env...
  left || { echo "skip selftest $1"; return; }
  local n=$1; shift
  env "$@" timeout ${TO:-100} $B selftest --backends ${BK:-cuda} --filter ${FL:-box-filter/fast} > $R/selftest-$n.txt 2>&1
  echo "selftest $n rc=$?: $(grep -E '^(ok|FAIL|fail)' $R/selftest-$n.txt | tr '\n' '|') $(tail -1 $R/selftest-$n.txt)"
}
ct() { # cuda crate's box tests
  left || { echo "skip test $1"; return; }
  local n=$1; shift
  [ -n "$TB" ] || return
  env "$@" timeout 100 $TB box_filter_fast --test-threads 1 > $R/test-$n.txt 2>&1
  echo "test $n rc=$?: $(grep 'test result' $R/test-$n.txt)"
}
rn() { # scenario: name, env...
  left || { echo "skip run $1"; return; }
  local n=$1; shift
  env "$@" DSPBENCH_REQUIRE=${BK:-cuda} timeout ${TO:-100} $B run $D/${SC:-sweep.yaml} --device opencl=NVIDIA --machine h100 --out /tmp/res/$n > $R/run-$n.log 2>&1
  echo "run $n rc=$? t=$(( $(date +%s) - T0 ))s cells=$(grep -c '^\[' $R/run-$n.log) verified=$(grep '^\[' $R/run-$n.log | grep -c ' verified')"
  grep '^\[' $R/run-$n.log | grep -v ' verified' | head -5
  grep -E "^\| [0-9]+#[0-9]+ .*h100 · " /tmp/res/$n/report.md | awk -F'|' '{gsub(/  +/," "); print $4,$6,$8,$10}' | sed 's/dtype=//; s/width=//; s/height=/x/; s/window=/m=/' | head -${NL:-12}
  cp /tmp/res/$n/results.jsonl $R/results-$n.jsonl 2>/dev/null
  cp /tmp/res/$n/report.md $R/report-$n.md 2>/dev/null
}
MODE=${1:-sweep}
if [ "$MODE" = sweep ]; then
  BK=cuda,opencl st auto
  ct auto
  rn old DSPBENCH_BOX_WAVES=0
  rn auto
  rn pf DSPBENCH_BOX_DEFINES=U8_PREFETCH
  rn st DSPBENCH_BOX_DEFINES=U8_STAGED
  rn stpf3 DSPBENCH_BOX_DEFINES=U8_STAGED,U8_PREFETCH,U8_MIN_BLOCKS=3
  rn pf3 DSPBENCH_BOX_DEFINES=U8_PREFETCH,U8_MIN_BLOCKS=3
  rn w2 DSPBENCH_BOX_WAVES=2
  rn old2 DSPBENCH_BOX_WAVES=0
  ct st DSPBENCH_BOX_DEFINES=U8_STAGED
  ct stpf3 DSPBENCH_BOX_DEFINES=U8_STAGED,U8_PREFETCH,U8_MIN_BLOCKS=3
  ct pf DSPBENCH_BOX_DEFINES=U8_PREFETCH
  st w2 DSPBENCH_BOX_WAVES=2
fi
if [ "$MODE" = two ]; then
  S=DSPBENCH_BOX_DEFINES=U8_STAGED
  SP=DSPBENCH_BOX_DEFINES=U8_STAGED,U8_PREFETCH
  BK=cuda,opencl FL=box-filter/ st st $S
  BK=cuda,opencl NL=0 SC=verify.yaml rn vst $S
  NL=0 SC=verify.yaml rn vstpf $SP
  rn old DSPBENCH_BOX_WAVES=0
  rn st $S
  rn stpf $SP
  rn st5 DSPBENCH_BOX_DEFINES=U8_STAGED,U8_MIN_BLOCKS=5
  rn stold $S DSPBENCH_BOX_WAVES=0
  rn st_b $S
  st stpf $SP
fi
if [ "$MODE" = final ]; then
  LIMIT=50
  TO=25 BK=cuda,opencl FL=box-filter/ st final
  TO=40 BK=cuda,opencl NL=20 SC=final.yaml rn final
  TO=15 BK=cuda,opencl NL=0 SC=vsmall.yaml rn vfinal
fi
tar cJf $OUT/all.tar.xz -C $R .
echo "total $(( $(date +%s) - T0 ))s"
