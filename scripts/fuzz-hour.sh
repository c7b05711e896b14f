#!/usr/bin/env bash
# Runs the property tests of dspbench's readers (crates/cli/tests/fuzz.rs and the `.npy` ones in
# crates/cli/src/npy.rs) again and again, each round with fresh random cases, for a while:
#
#   scripts/fuzz-hour.sh [SECONDS=3600] [CASES_PER_ROUND=2000]
#
# Prints a line per round and, at the end, how many cases each property ran and whether any
# failed (the failing round's output is kept in target/fuzz-hour/). CI runs the same tests with
# a bounded number of cases; this is the long run.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
cases=${2:-2000}
logs=target/fuzz-hour
mkdir -p "$logs"
# The test binaries are built once and copied, so that edits to the tree during the hour change
# nothing about what runs.
binaries=$(cargo test -p dspbench --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"] and m["target"]["name"] in ("fuzz", "dspbench"):
        print(m["target"]["name"], m["executable"])')
fuzz_bin=$(echo "$binaries" | awk '$1 == "fuzz" {print $2}')
unit_bin=$(echo "$binaries" | awk '$1 == "dspbench" {print $2}' | head -1)
[ -n "$fuzz_bin" ] && [ -n "$unit_bin" ] || { echo "could not build the test binaries" >&2; exit 1; }
cp "$fuzz_bin" "$logs/fuzz" && cp "$unit_bin" "$logs/unit"
end=$(( $(date +%s) + seconds ))
round=0
failed=0
declare -A total
while [ "$(date +%s)" -lt "$end" ]; do
  round=$((round + 1))
  out="$logs/round-$round.log"
  if PROPTEST_CASES=$cases RUST_BACKTRACE=0 "$logs/fuzz" >"$out" 2>&1 &&
     PROPTEST_CASES=$cases RUST_BACKTRACE=0 "$logs/unit" npy::fuzz >>"$out" 2>&1; then
    status=ok
    rm -f "$out"
  else
    status="FAILED (see $out)"
    failed=$((failed + 1))
  fi
  for property in corrupted_scenarios random_scenarios random_text corrupted_results_folders npy_random_bytes npy_corrupted_files; do
    total[$property]=$(( ${total[$property]:-0} + cases ))
  done
  echo "round $round: $cases cases per property: $status"
done
echo "ran $round round(s) in $seconds s:"
for property in "${!total[@]}"; do echo "  $property: ${total[$property]} cases"; done
echo "failed rounds: $failed"
[ "$failed" -eq 0 ]
