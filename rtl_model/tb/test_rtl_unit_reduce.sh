#!/usr/bin/env bash
# The unit's reduce mode (mt_tu_rdpath over mt_tu_reduce) against the C model (lib/mt_unit_rd.c):
# random co-simulation (mt_cosim --reduce: random budgets, walking / repeating / alternating pages,
# accesses every clock or sparse, REDUCE and CTRL written mid-session, small FIFOs), every clock
# compared, register reads included, the stop's flush and the END.  The golden vector
# reduce_unit.vec runs with the others (test_rtl_golden.sh).
set -u
cd "$(dirname "$0")/../.."
cosim="${BUILD:-build}/rtl/mt_cosim"
if out=$("$cosim" --reduce --seed 1 --streams 60 --cycles 6000 2>&1); then
  echo "$out" | tail -n 2
  echo "PASS rtl_unit_reduce_cosim"
else
  echo "$out" | tail -n 40; echo "FAIL rtl_unit_reduce_cosim"
fi
