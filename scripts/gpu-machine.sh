#!/usr/bin/env bash
# The GPU machine's job, for a binary built elsewhere (that machine has no cargo): list, selftest
# with every backend required, the scenarios (the GPU peers, CuPy and PyTorch, are contenders of
# gpu-showcase.yaml), and the CPU peers on its host CPU. Each step's log goes
# next to its results; one step failing does not stop the others.
#
# Usage: scripts/gpu-machine.sh BIN OUTDIR LABEL STEP...
#   STEP: selftest | papers | showcase | peers | report
# Through the device tool, give an OUTDIR outside its $OUT and pack it into one archive under $OUT
# at the end (tar -cJf $OUT/run.tar.xz ...): the tool brings back only a few files a call, and a
# run written straight under $OUT lost its raw records so (reports/2026-11-26-h100/
# box-sizes-session48/README.md).
set -u
bin=$1 out=$2 label=$3
shift 3
mkdir -p "$out"
export DSPBENCH_REQUIRE=${DSPBENCH_REQUIRE-cuda,opencl,peers}
step_rc=0
for step in "$@"; do
  start=$(date +%s)
  case $step in
    selftest)
      "$bin" list > "$out/list.txt" 2>&1
      nvidia-smi > "$out/nvidia-smi.txt" 2>&1
      "$bin" selftest > "$out/selftest.txt" 2>&1 ;;
    papers)
      "$bin" run scenarios/paper-001-box-filter.yaml scenarios/paper-002-fft.yaml scenarios/paper-003-conv1d.yaml \
        scenarios/paper-004-conv2d.yaml --machine "$label" --out "$out/papers" > "$out/papers.log" 2>&1 ;;
    showcase)
      "$bin" run scenarios/gpu-showcase.yaml --machine "$label" --out "$out/showcase" > "$out/showcase.log" 2>&1 ;;
    peers)
      "$bin" run scenarios/cpu-peers.yaml --machine "$label" --out "$out/peers" > "$out/peers.log" 2>&1 ;;
    report)
      dirs=()
      for d in papers showcase peers; do [ -d "$out/$d" ] && dirs+=("$out/$d"); done
      "$bin" report "${dirs[@]}" --out "$out/compare" > "$out/report.log" 2>&1 ;;
    *) echo "unknown step $step"; exit 2 ;;
  esac
  rc=$?
  [ $rc -ne 0 ] && step_rc=$rc
  echo "step $step: exit $rc in $(( $(date +%s) - start )) s"
done
exit $step_rc
