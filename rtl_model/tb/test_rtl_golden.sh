#!/usr/bin/env bash
# Every golden vector (tests/golden/*.vec) through the RTL testbench, compared with the expected
# output the C model wrote (*.exp): stream bytes, FIFO level and drained bytes every cycle, the
# session counters and the end cycle.  One PASS/FAIL line per vector.
set -u
cd "$(dirname "$0")/../.."
tb="${BUILD:-build}/rtl/mt_rtl_tb"
shopt -s nullglob
vecs=(tests/golden/*.vec)
if [ ${#vecs[@]} -eq 0 ]; then echo "no golden vectors in tests/golden"; exit 77; fi
for v in "${vecs[@]}"; do
  name=$(basename "$v" .vec)
  if "$tb" "$v" "${v%.vec}.exp"; then echo "PASS rtl_golden_$name"; else echo "FAIL rtl_golden_$name"; fi
done
