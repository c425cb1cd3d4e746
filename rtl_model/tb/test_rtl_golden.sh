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
# A unit that never finishes after 'stop' is an error of the testbench, not a spin until the test
# runner's timeout: with a limit of 2 cycles (the vector needs more to drain) it must fail, named.
v=tests/golden/dense_r1.vec
if MT_RTL_TB_STOP_LIMIT=2 "$tb" "$v" >/dev/null 2>"${TMPDIR:-/tmp}/rtl_stop_limit.$$"; then
  echo "FAIL rtl_tb_stop_limit (exit 0)"
elif grep -q "still busy or its FIFO not empty 2 cycles after 'stop'" "${TMPDIR:-/tmp}/rtl_stop_limit.$$"; then
  echo "PASS rtl_tb_stop_limit"
else
  echo "FAIL rtl_tb_stop_limit"; cat "${TMPDIR:-/tmp}/rtl_stop_limit.$$"
fi
rm -f "${TMPDIR:-/tmp}/rtl_stop_limit.$$"
