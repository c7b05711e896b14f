#!/usr/bin/env bash
# Rebuilds every committed report from its raw results with the current `dspbench report`, so
# that a change to the report's layout or charts reaches the committed examples too. Reports are
# deterministic: an unchanged layout leaves the files byte for byte as they were.
#
#   scripts/rebuild-reports.sh [path/to/dspbench]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/dspbench}
r=reports
# Records kept compressed (reports/README.md) are unpacked for the run and removed again after.
unpacked=()
for packed in $(find "$r" -name results.jsonl.xz); do
  if [ ! -e "${packed%.xz}" ]; then
    xz -dk "$packed"
    unpacked+=("${packed%.xz}")
  fi
done
trap 'rm -f "${unpacked[@]}"' EXIT
# out folder: the results folders it merges (the first is the default baseline's machine)
while read -r out folders; do
  [ -n "$out" ] || continue
  # shellcheck disable=SC2086
  "$bin" report $folders --out "$out"
done <<EOF_LIST
$r/2026-11-22-dev-2core $r/2026-11-22-dev-2core/papers $r/2026-11-22-dev-2core/quick $r/2026-11-22-dev-2core/cpu-peers
$r/2026-11-22-h100 $r/2026-11-22-h100/papers $r/2026-11-22-h100/showcase $r/2026-11-22-h100/peers
$r/2026-11-22-h200 $r/2026-11-22-h200/papers $r/2026-11-22-h200/showcase $r/2026-11-22-h200/peers
$r/2026-11-22-comparison $r/2026-11-22-dev-2core/papers $r/2026-11-22-h100/papers $r/2026-11-22-h200/papers $r/2026-11-22-h100/peers
$r/2026-11-24-dev-2core/quick-1 $r/2026-11-24-dev-2core/quick-1
$r/2026-11-24-dev-2core/quick-2 $r/2026-11-24-dev-2core/quick-2
$r/2026-11-24-h100/quick-host-1 $r/2026-11-24-h100/quick-host-1
$r/2026-11-24-h100/quick-host-2 $r/2026-11-24-h100/quick-host-2
$r/2026-11-24-h100/quick-gpu $r/2026-11-24-h100/quick-gpu
$r/2026-11-24-h100/showcase-1 $r/2026-11-24-h100/showcase-1
$r/2026-11-24-h100/showcase-2 $r/2026-11-24-h100/showcase-2
$r/2026-11-24-h200x2/showcase $r/2026-11-24-h200x2/showcase
$r/2026-11-24-h100/peers/showcase-peers-1 $r/2026-11-24-h100/peers/showcase-peers-1
$r/2026-11-24-h100/peers/showcase-peers-2 $r/2026-11-24-h100/peers/showcase-peers-2
$r/2026-11-24-dev-2core/session-2/quick-1 $r/2026-11-24-dev-2core/session-2/quick-1
$r/2026-11-24-dev-2core/session-2/quick-2 $r/2026-11-24-dev-2core/session-2/quick-2
$r/2026-11-24-dev-2core/session-2/cpu-peers-1 $r/2026-11-24-dev-2core/session-2/cpu-peers-1
$r/2026-11-24-dev-2core/session-2/cpu-peers-2 $r/2026-11-24-dev-2core/session-2/cpu-peers-2
$r/2026-11-24-h100/box-fast $r/2026-11-24-h100/box-fast
$r/2026-11-25-h100/box-fast $r/2026-11-25-h100/box-fast
$r/2026-11-25-h100/box-fast-2 $r/2026-11-25-h100/box-fast-2
$r/2026-11-25-h100/after-review/box-fast $r/2026-11-25-h100/after-review/box-fast
$r/2026-11-25-h100/lms $r/2026-11-25-h100/lms
$r/2026-11-25-h100/lab5 $r/2026-11-25-h100/lab5
$r/2026-11-25-dev-2core/cpu-peers-1 $r/2026-11-25-dev-2core/cpu-peers-1
$r/2026-11-25-dev-2core/cpu-peers-2 $r/2026-11-25-dev-2core/cpu-peers-2
$r/2026-11-25-h100/gpu-roof $r/2026-11-25-h100/gpu-roof
$r/2026-11-25-h100/after-review-2/after-review $r/2026-11-25-h100/after-review-2/after-review
$r/2026-11-25-dev-2core/fft-mixed-radix $r/2026-11-25-dev-2core/fft-mixed-radix
$r/2026-11-25-dev-2core/session-3/cpu-peers-1 $r/2026-11-25-dev-2core/session-3/cpu-peers-1
$r/2026-11-25-dev-2core/session-3/cpu-peers-2 $r/2026-11-25-dev-2core/session-3/cpu-peers-2
$r/2026-11-25-h200/gpu-roof-tuning $r/2026-11-25-h200/gpu-roof-tuning
$r/2026-11-25-dev-2core/session-4/cpu-peers-1 $r/2026-11-25-dev-2core/session-4/cpu-peers-1
$r/2026-11-25-dev-2core/session-4/cpu-peers-2 $r/2026-11-25-dev-2core/session-4/cpu-peers-2
$r/2026-11-25-h100/stockham-split $r/2026-11-25-h100/stockham-split
$r/2026-11-25-h100/stockham-four-step $r/2026-11-25-h100/stockham-four-step
$r/2026-11-24-comparison $r/2026-11-24-dev-2core/quick-1 $r/2026-11-24-h100/quick-host-1 $r/2026-11-24-h100/quick-gpu $r/2026-11-24-h100/showcase-1 $r/2026-11-24-h200x2/showcase $r/2026-11-22-h100/peers $r/2026-11-22-h200/peers
EOF_LIST
